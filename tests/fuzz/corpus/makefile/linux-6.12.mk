# SPDX-License-Identifier: GPL-2.0
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 9
EXTRAVERSION = -rc3
NAME = Baby Opossum Posse

# *DOCUMENTATION*
all:
