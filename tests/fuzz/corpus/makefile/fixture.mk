# SPDX-License-Identifier: GPL-2.0
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 0
EXTRAVERSION =
NAME = Hurr durr I'ma ninja sloth

# linux-mini: a hand-written miniature of a v6.1 tree used as a test fixture.
# Nothing here is meant to be built; only the version header above is read.
