/// Convert spinlock_t and the spin_*() API to lock_t and acquire_lock_t()
/// & co (include/linux/lock.h), except the locks that must keep spinning on
/// PREEMPT_RT; with -D raw=1 those become raw_spinlock_t and raw_spin_*()
/// instead of being left alone.  Existing raw_spinlock_t code is not touched.
///
/// Converted: spinlock_t wherever spatch sees it as a type (struct and union
/// fields, globals, statics, locals, externs, typedefs, parameters and return
/// types of spinlock_t *, casts, sizeof, __alignof__) or as a macro argument
/// (DEFINE_PER_CPU(spinlock_t, x) & co, container_of()); DEFINE_SPINLOCK();
/// __SPIN_LOCK_UNLOCKED() in static initialisers; every name of the mapping
/// table below used as an expression (calls, function pointers, aliases).
///
/// The per-lock decision is rtlock's; this patch only reads it:
///   -D keep_sites=FILE  "path:line:col" lines: the API name (or the
///                       spinlock_t token of a cast/sizeof) written there
///                       (1-based) belongs to a lock that keeps spinning
///   -D keep_decls=FILE  "path:line:NAME" lines: the declaration of NAME
///                       (variable, field, parameter, function returning
///                       spinlock_t *, typedef, DEFINE_SPINLOCK(NAME),
///                       DEFINE_PER_CPU(spinlock_t, NAME)) written on that
///                       line keeps spinning
///   -D keep_names=FILE  one name a line: names that only kept locks (and
///                       the spinlock_t * declarations holding them) have
///                       in the scanned configuration; a declaration of
///                       that name, and an API call whose lock argument
///                       ends in it (&NAME, NAME, NAME(...)), keep
///                       spinning; ".NAME": a field only kept locks have,
///                       for field declarations and &x->NAME, x.NAME;
///                       "path:NAME", "path:.NAME": API calls in that file
///                       only, where the calls the scan saw on NAME are
///                       all on kept locks.
///                       Code under an #ifdef the scan's configuration
///                       leaves out was not seen
///   -D raw=1            kept ones become raw_spinlock_t / raw_spin_*()
///   -D tree=DIR         tree root the paths are relative to (default: the
///                       current directory); also used to check that
///                       era-dependent raw targets exist in the tree
/// Each file is read once per spatch process into a Python set ("#" starts
/// a comment).  Everything not kept is converted.  One spatch run per file
/// set, no per-lock runs.
///
/// Macro bodies, and code spatch cannot parse: the rules here skip every
/// position on a #define line.  Coccinelle parses some #define bodies but
/// not those that generate functions (block/kyber-iosched.c
/// KYBER_DEBUGFS_DOMAIN_ATTRS, lib/locking-selftest.c), and when it expands
/// such a macro to parse its uses, rewriting a token that came from the body
/// fails the whole file ("try to delete an expanded token").  The bodies are
/// converted by the fallback textual rule cocci/lock_t_text.py, run after
/// spatch on the same files with the same keep files: it converts the
/// #define bodies, and with --orig-root (the tree before conversion) every
/// line spatch left as it was, i.e. declarations spatch could not parse
/// (6.1: struct klist, struct address_space).  It executes the Python
/// block between the "lock_t core" markers below, so there is one table
/// and one decision code.
///
/// Positions: once a rule has rewritten a function or declaration,
/// Coccinelle re-parses it from a temporary file and later rules see
/// positions in that file; pos() below maps them back to the source (line
/// offset by voting on identical lines, column by token index) and the
/// decision is taken on the original text.
///
/// Not touched: the lock implementation (EXCLUDE_FILES below:
/// include/linux/spinlock*.h, local_lock*.h, lock.h, lock_types.h,
/// seqlock.h, kernel/locking/, lib/bucket_locks.c,
/// arch/X/include/asm/spinlock*.h), the
/// user-space ABI headers (include/uapi/, arch/X/include/uapi/) and the
/// functions and macros that implement a mapped helper (IMPL below:
/// spin_needbreak(), __cond_resched_lock(), kref_put_lock(), the
/// wait_event_lock_irq() and kfifo_*_spinlocked() families, ...), which
/// lock.h wraps.
///
/// Mapping (also in cocci/README.md and tool/templates/lock.h.in):
///   spinlock_t               lock_t                     raw_spinlock_t
///   DEFINE_SPINLOCK          DEFINE_LOCK                DEFINE_RAW_SPINLOCK
///   __SPIN_LOCK_UNLOCKED     __LOCK_UNLOCKED            __RAW_SPIN_LOCK_UNLOCKED
///   spin_lock_init           lock_init                  raw_spin_lock_init
///   spin_lock                acquire_lock_t             raw_spin_lock
///   spin_unlock              release_lock_t             raw_spin_unlock
///   spin_lock_bh/_irq        acquire_lock_bh/_irq       raw_spin_lock_bh/_irq
///   spin_unlock_bh/_irq      release_lock_bh/_irq       raw_spin_unlock_bh/_irq
///   spin_lock_irqsave        acquire_lock_irqsave       raw_spin_lock_irqsave
///   spin_unlock_irqrestore   release_lock_irqrestore    raw_spin_unlock_irqrestore
///   spin_lock_nested         acquire_lock_nested        raw_spin_lock_nested
///   spin_lock_nest_lock      acquire_lock_nest_lock     raw_spin_lock_nest_lock
///   spin_lock_irqsave_nested acquire_lock_irqsave_nested raw_spin_lock_irqsave_nested
///   spin_trylock[_bh|_irq|_irqsave] try_acquire_lock[...] raw_spin_trylock[...]
///   spin_is_locked           lock_is_locked             raw_spin_is_locked
///   spin_is_contended        lock_has_waiters           raw_spin_is_contended
///   assert_spin_locked       assert_lock_held           assert_raw_spin_locked
///   spin_can_lock (<4.16)    can_acquire_lock           raw_spin_can_lock
///   spin_unlock_wait (<4.13) wait_lock_released         raw_spin_unlock_wait
///   cond_resched_lock        cond_resched_acquired_lock -
///   spin_needbreak           lock_needbreak             -
///   atomic_dec_and_lock[_irqsave] atomic_dec_and_acquire_lock[_irqsave]
///                            atomic_dec_and_raw_lock[_irqsave] (6.2+ only)
///   refcount_dec_and_lock[_irqsave] refcount_dec_and_acquire_lock[_irqsave] -
///   kref_put_lock            kref_put_acquire_lock      -
///   wait_event[_interruptible]_lock_irq[_cmd|_timeout]
///                            wait_event[_interruptible]_acquired_lock_irq[...] -
///   kfifo_{in,out,is_empty}_spinlocked[_noirqsave], kfifo_{in,out}_locked
///                            kfifo_{in,out,is_empty}_acquire_lock[_noirqsave] -
///   seqcount_spinlock_init   seqcount_lock_init         -
///   SEQCNT_SPINLOCK_ZERO     SEQCNT_LOCK_ZERO           -
///   alloc_bucket_spinlocks   alloc_bucket_locks         -
///   free_bucket_spinlocks    free_bucket_locks          -
/// ("-": no raw form; a kept lock using it is left unchanged and
/// "no raw_spinlock_t form" is printed on stderr.)
/// spin_lock/spin_unlock map to acquire_lock_t/release_lock_t and
/// spin_is_contended to lock_has_waiters, not to the article's
/// acquire_lock/release_lock/lock_is_contended: those names already exist in
/// the 6.1/6.12 trees (static functions acquire_lock()/release_lock() in
/// 6.12 drivers/md/dm-vdo, a static variable release_lock in
/// drivers/usb/serial/mos7720.c, ->acquire_lock() members in
/// i2c-designware, a label lock_is_contended in fs/afs/flock.c).
///
// Confidence: High for the renames.  The conversion is exactly as good as
//   the keep files: a kept lock whose call site or declaration is missing
//   from them is converted (see the "not matched" warnings on stderr).
// Copyright: (C) 2026 the rtlock authors.  GPLv2.
// Options: --no-includes --include-headers --max-width 200
// Keywords: lock_t, spinlock_t, PREEMPT_RT
// Requires: 1.1.1
// Comments: from the tree root (or with -D tree=ROOT):
//   spatch --sp-file cocci/lock_t.cocci --no-includes --include-headers \
//          --max-width 200 --in-place -D keep_sites=K.sites \
//          -D keep_decls=K.decls [-D raw=1] FILES...
//   python3 cocci/lock_t_text.py --keep-sites K.sites --keep-decls K.decls \
//          [--raw] --orig-root PRISTINE_TREE --in-place FILES...
//   --max-width keeps Coccinelle from re-wrapping lines that got longer.
//   Idempotent: on converted code nothing matches (keep files must then
//   give the positions in the converted text; kept tokens that share a
//   line with converted ones move).  Warnings go to stderr, "lock_t: ".

// ---------------------------------------------------------------------
// The decision code, shared with cocci/lock_t_text.py (which executes
// the text between the two markers).
// ---------------------------------------------------------------------
@initialize:python@
@@
# >>> lock_t core
import os
import re
import sys
import bisect

# spin_* name -> (lock_t name, name for a kept lock with -D raw=1 or None)
LOCK_T_MAP = {
    "spin_lock":                  ("acquire_lock_t", "raw_spin_lock"),
    "spin_lock_bh":               ("acquire_lock_bh", "raw_spin_lock_bh"),
    "spin_lock_irq":              ("acquire_lock_irq", "raw_spin_lock_irq"),
    "spin_lock_irqsave":          ("acquire_lock_irqsave", "raw_spin_lock_irqsave"),
    "spin_lock_nested":           ("acquire_lock_nested", "raw_spin_lock_nested"),
    "spin_lock_nest_lock":        ("acquire_lock_nest_lock", "raw_spin_lock_nest_lock"),
    "spin_lock_irqsave_nested":   ("acquire_lock_irqsave_nested", "raw_spin_lock_irqsave_nested"),
    "spin_unlock":                ("release_lock_t", "raw_spin_unlock"),
    "spin_unlock_bh":             ("release_lock_bh", "raw_spin_unlock_bh"),
    "spin_unlock_irq":            ("release_lock_irq", "raw_spin_unlock_irq"),
    "spin_unlock_irqrestore":     ("release_lock_irqrestore", "raw_spin_unlock_irqrestore"),
    "spin_trylock":               ("try_acquire_lock", "raw_spin_trylock"),
    "spin_trylock_bh":            ("try_acquire_lock_bh", "raw_spin_trylock_bh"),
    "spin_trylock_irq":           ("try_acquire_lock_irq", "raw_spin_trylock_irq"),
    "spin_trylock_irqsave":       ("try_acquire_lock_irqsave", "raw_spin_trylock_irqsave"),
    "spin_lock_init":             ("lock_init", "raw_spin_lock_init"),
    "spin_is_locked":             ("lock_is_locked", "raw_spin_is_locked"),
    "spin_is_contended":          ("lock_has_waiters", "raw_spin_is_contended"),
    "assert_spin_locked":         ("assert_lock_held", "assert_raw_spin_locked"),
    "spin_can_lock":              ("can_acquire_lock", "raw_spin_can_lock"),
    "spin_unlock_wait":           ("wait_lock_released", "raw_spin_unlock_wait"),
    "__SPIN_LOCK_UNLOCKED":       ("__LOCK_UNLOCKED", "__RAW_SPIN_LOCK_UNLOCKED"),
    "DEFINE_SPINLOCK":            ("DEFINE_LOCK", "DEFINE_RAW_SPINLOCK"),
    "spinlock_t":                 ("lock_t", "raw_spinlock_t"),
    # helpers of the include/linux headers that take a spinlock
    "cond_resched_lock":          ("cond_resched_acquired_lock", None),
    "spin_needbreak":             ("lock_needbreak", None),
    "atomic_dec_and_lock":        ("atomic_dec_and_acquire_lock", "atomic_dec_and_raw_lock"),
    "atomic_dec_and_lock_irqsave": ("atomic_dec_and_acquire_lock_irqsave", "atomic_dec_and_raw_lock_irqsave"),
    "refcount_dec_and_lock":      ("refcount_dec_and_acquire_lock", None),
    "refcount_dec_and_lock_irqsave": ("refcount_dec_and_acquire_lock_irqsave", None),
    "kref_put_lock":              ("kref_put_acquire_lock", None),
    # the raw forms are lock.h's
    "wait_event_lock_irq":        ("wait_event_acquired_lock_irq", "wait_event_raw_lock_irq"),
    "wait_event_lock_irq_cmd":    ("wait_event_acquired_lock_irq_cmd", "wait_event_raw_lock_irq_cmd"),
    "wait_event_lock_irq_timeout": ("wait_event_acquired_lock_irq_timeout", "wait_event_raw_lock_irq_timeout"),
    "wait_event_interruptible_lock_irq": ("wait_event_interruptible_acquired_lock_irq", "wait_event_interruptible_raw_lock_irq"),
    "wait_event_interruptible_lock_irq_cmd": ("wait_event_interruptible_acquired_lock_irq_cmd", "wait_event_interruptible_raw_lock_irq_cmd"),
    "wait_event_interruptible_lock_irq_timeout": ("wait_event_interruptible_acquired_lock_irq_timeout", "wait_event_interruptible_raw_lock_irq_timeout"),
    "kfifo_in_spinlocked":        ("kfifo_in_acquire_lock", None),
    "kfifo_out_spinlocked":       ("kfifo_out_acquire_lock", None),
    "kfifo_in_spinlocked_noirqsave": ("kfifo_in_acquire_lock_noirqsave", None),
    "kfifo_out_spinlocked_noirqsave": ("kfifo_out_acquire_lock_noirqsave", None),
    "kfifo_is_empty_spinlocked":  ("kfifo_is_empty_acquire_lock", None),
    "kfifo_is_empty_spinlocked_noirqsave": ("kfifo_is_empty_acquire_lock_noirqsave", None),
    "kfifo_in_locked":            ("kfifo_in_acquire_lock", None),
    "kfifo_out_locked":           ("kfifo_out_acquire_lock", None),
    # a seqcount associated with the lock: kept only by position (rtlock
    # puts the call in keep_sites when every lock that seqcount is given
    # is kept, and its declaration in keep_decls, which retypes it to
    # seqcount_raw_spinlock_t: seqcount_to_raw below)
    "seqcount_spinlock_init":     ("seqcount_lock_init", "seqcount_raw_spinlock_init"),
    "SEQCNT_SPINLOCK_ZERO":       ("SEQCNT_LOCK_ZERO", "SEQCNT_RAW_SPINLOCK_ZERO"),
    # an array of locks allocated by lib/bucket_locks.c
    "alloc_bucket_spinlocks":     ("alloc_bucket_locks", None),
    "free_bucket_spinlocks":      ("free_bucket_locks", None),
}

# Raw targets that only some eras have: used only if the tree (-D tree)
# defines them, else the kept call is left alone with a warning.
RAW_ERA_DEPENDENT = {
    "atomic_dec_and_raw_lock": "include/linux/spinlock.h",
    "atomic_dec_and_raw_lock_irqsave": "include/linux/spinlock.h",
    "raw_spin_can_lock": "include/linux/spinlock.h",
    "raw_spin_unlock_wait": "include/linux/spinlock.h",
    "seqcount_raw_spinlock_init": "include/linux/seqlock.h",
    "SEQCNT_RAW_SPINLOCK_ZERO": "include/linux/seqlock.h",
}

# Kept only where keep_sites says: the seqcount they initialise changes
# type with them, which a decision by name would not do.
BY_POSITION_ONLY = {"seqcount_spinlock_init", "SEQCNT_SPINLOCK_ZERO"}

# Functions and macros that implement a mapped API: nothing in them is
# converted (lock.h builds the lock_t forms on top of them).
IMPL = set(k for k in LOCK_T_MAP if k != "spinlock_t") | {
    "spinlock_check", "__cond_resched_lock", "_atomic_dec_and_lock",
    "_atomic_dec_and_lock_irqsave", "__wait_event_lock_irq",
    "__wait_event_interruptible_lock_irq", "__wait_event_lock_irq_timeout",
}

# The lock implementation itself is never converted.
EXCLUDE_FILES = re.compile(
    r"^(include/linux/(spinlock[^/]*|local_lock[^/]*|lock|lock_types|seqlock[^/]*)\.h"
    r"|kernel/locking/|lib/bucket_locks\.c$"
    r"|include/uapi/|arch/[^/]+/include/uapi/"
    r"|arch/[^/]+/include/asm/spinlock[^/]*\.h)")

PERCPU_MACRO = re.compile(r"^(DEFINE|DECLARE)_PER_CPU\w*$")
QUALIFIERS = {"const", "volatile", "restrict", "__restrict", "__rcu",
              "__percpu", "__iomem", "__user", "__kernel", "__private",
              "__force", "static", "extern", "register", "inline",
              "__maybe_unused", "struct"}

KEEP_SITES = set()    # (path, line, col1)
KEEP_DECLS = set()    # (path, line, name)
KEEP_NAMES = set()    # names only kept locks have
KEEP_MEMBERS = set()  # fields only kept locks have
KEEP_PARAMS = set()   # (path or None, FUNC, N): parameter N of FUNC is kept
FILE_KEEP_NAMES = set()  # (path, NAME or .NAME) only kept at calls there
USED_SITES = set()
USED_DECLS = set()
SEEN_FILES = {}      # rel path -> path as given
OPTS = {"raw": False, "tree": None}
_WARNED = set()


def lt_warn(msg):
    if msg not in _WARNED:
        _WARNED.add(msg)
        sys.stderr.write("lock_t: warning: %s\n" % msg)


def _read_list(fname, nfields, what):
    out = set()
    with open(fname, encoding="utf-8", errors="replace") as f:
        for n, l in enumerate(f, 1):
            l = l.split("#", 1)[0].strip()
            if not l:
                continue
            parts = l.rsplit(":", 2)
            if len(parts) != 3:
                lt_warn("%s:%d: bad %s entry %r" % (fname, n, what, l))
                continue
            path = os.path.normpath(parts[0])
            try:
                if nfields == "col":
                    out.add((path, int(parts[1]), int(parts[2])))
                else:
                    out.add((path, int(parts[1]), parts[2].strip()))
            except ValueError:
                lt_warn("%s:%d: bad %s entry %r" % (fname, n, what, l))
    return out


def lt_load_sites(fname):
    KEEP_SITES.update(_read_list(fname, "col", "keep_sites"))


def lt_load_decls(fname):
    KEEP_DECLS.update(_read_list(fname, "name", "keep_decls"))


def lt_load_names(fname):
    with open(fname, encoding="utf-8", errors="replace") as f:
        for l in f:
            if "()#" in l:
                # FUNC()#N, path:FUNC()#N (a static function)
                fn, n = l.strip().rsplit("()#", 1)
                path, _, fn = fn.rpartition(":")
                if n.isdigit():
                    KEEP_PARAMS.add((os.path.normpath(path) if path else None,
                                     fn, int(n)))
                continue
            l = l.split("#", 1)[0].strip()
            if ":" in l:
                path, name = l.rsplit(":", 1)
                FILE_KEEP_NAMES.add((os.path.normpath(path), name))
            elif l.startswith("."):
                KEEP_MEMBERS.add(l[1:])
            elif l:
                KEEP_NAMES.add(l)


def lt_set_raw(v):
    OPTS["raw"] = str(v).strip().lower() not in ("", "0", "no", "false", "n")


def lt_set_tree(v):
    OPTS["tree"] = os.path.abspath(v) if v else None


def lt_rel(path):
    root = OPTS["tree"] or os.getcwd()
    ap = os.path.abspath(path)
    if ap.startswith(root.rstrip("/") + "/"):
        return os.path.normpath(os.path.relpath(ap, root))
    return os.path.normpath(path)


# ---- source text index (comments and literals blanked) ----

# spelled with chr() so that the SmPL lexer sees no comment, escape or quote
SLASH, STAR, BSL, DQ, SQ = chr(47), chr(42), chr(92), chr(34), chr(39)
WS = " \t\r\n" + BSL


# a line comment (continued over backslash-newline), a block comment, a
# string or character literal (its quotes kept, ending at a newline
# that is not escaped)
_MASKED = re.compile(SLASH + SLASH + r"(?:[^\n]*" + re.escape(BSL) +
                     r"\n)*[^\n]*|" + re.escape(SLASH + STAR) + r".*?(?:" +
                     re.escape(STAR + SLASH) + r"|\Z)|([" + DQ + SQ +
                     r"])((?:[^\n" + re.escape(BSL) + r"]|" + re.escape(BSL) +
                     r".)*?)(?:\1|(?=\n)|\Z)", re.S)
_NOT_NL = re.compile(r"[^\n]")


def _mask_one(mt):
    if mt.group(1) is None:
        return _NOT_NL.sub(" ", mt.group(0))
    q = mt.group(1)
    return q + _NOT_NL.sub(" ", mt.group(2)) + mt.group(0)[1 + len(mt.group(2)):]


def _mask(t):
    """t with comments and the insides of literals blanked, newlines and
    offsets kept"""
    return _MASKED.sub(_mask_one, t)


_ID = re.compile(r"[A-Za-z_]\w*")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)")
_FILES = {}


class SrcFile(object):
    def __init__(self, path):
        with open(path, "rb") as f:
            self.text = f.read().decode("latin-1")
        self.masked = _mask(self.text)
        self.starts = [0]
        for m in re.finditer("\n", self.text):
            self.starts.append(m.end())
        # line -> (macro name, offset of body start, offset of end)
        self.define_of_line = {}
        self.defines = []
        lines = self.text.split("\n")
        ln = 0
        while ln < len(lines):
            m = _DEFINE.match(self.masked[self.starts[ln]:self.starts[ln] + len(lines[ln])])
            if not m:
                ln += 1
                continue
            first = ln
            while ln < len(lines) and lines[ln].rstrip(chr(13)).endswith(BSL):
                ln += 1
            last = min(ln, len(lines) - 1)
            start = self.starts[first]
            end = self.starts[last] + len(lines[last])
            d = (m.group(1), start + m.end(), end, first + 1)
            self.defines.append(d)
            for k in range(first, last + 1):
                self.define_of_line[k + 1] = d
            ln += 1
        self._decls = None
        self.line_index = None
        self.lines = None

    def off(self, line, col0):
        return self.starts[line - 1] + col0

    def linecol(self, off):
        i = bisect.bisect_right(self.starts, off) - 1
        return i + 1, off - self.starts[i]

    def in_record(self, off):
        """Is offset off inside a struct or union body (a field)?"""
        m = self.masked
        depth = 0
        i = off - 1
        while i >= 0:
            c = m[i]
            if c == "}":
                depth += 1
            elif c == "{":
                if depth == 0:
                    break
                depth -= 1
            i -= 1
        if i < 0:
            return False
        # from a line's start, so that a preprocessor line is whole
        head = m[m.rfind("\n", 0, max(0, i - 300)) + 1:i]
        # without preprocessor lines: "#define X (1 << 8)" before
        # "struct s {" is not a function's parameter list
        head = re.sub(r"(?m)^[ \t]*#(?:.*\\\n)*.*$", "", head)
        head = re.split(r"[;{}]", head)[-1]
        return re.search(r"\b(struct|union)\b", head) is not None and \
            ")" not in head and "=" not in head

    def param_of(self, off):
        """(FUNC, N) when offset off is in parameter N of a declaration
        or definition of FUNC, else None."""
        m = self.masked
        depth, commas, i = 0, 0, off - 1
        while i >= 0 and off - i < 4000:
            c = m[i]
            if c in ")]}":
                depth += 1
            elif c in "([{":
                if depth == 0:
                    break
                depth -= 1
            elif c in ";" and depth == 0:
                return None
            elif c == "," and depth == 0:
                commas += 1
            i -= 1
        if i < 0 or m[i] != "(":
            return None
        mm = re.search(r"([A-Za-z_]\w*)\s*$", m[max(0, i - 200):i])
        if not mm or mm.group(1) in ("sizeof", "typeof", "__typeof__",
                                     "if", "while", "for", "switch",
                                     "return"):
            return None
        return mm.group(1), commas

    # -- declarators of the spinlock_t token that ends at offset o --
    def _skip_ws(self, i, lim):
        m = self.masked
        while i < lim and m[i] in WS:
            i += 1
        return i

    def _skip_balanced(self, i, lim):
        m = self.masked
        depth = 0
        while i < lim:
            c = m[i]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    return i
                depth -= 1
            elif depth == 0 and c in ",;":
                return i
            i += 1
        return i

    def declarators(self, start, end, lim=None):
        """(names, init_spans) declared by the type token at [start,end).
        names: list of (name, line)."""
        m = self.masked
        lim = len(m) if lim is None else lim
        lim = min(lim, end + 8000)
        # what precedes the type (skipping qualifiers)?
        j = start - 1
        while True:
            while j >= 0 and m[j] in WS:
                j -= 1
            if j >= 0 and (m[j].isalnum() or m[j] == "_"):
                k = j
                while k >= 0 and (m[k].isalnum() or m[k] == "_"):
                    k -= 1
                if m[k + 1:j + 1] in QUALIFIERS:
                    j = k
                    continue
            break
        prev = m[j] if j >= 0 else ";"
        names, inits = [], []
        i = end
        if prev in "(,":
            # parameter, cast, sizeof or macro argument: one declarator;
            # DEFINE_PER_CPU(spinlock_t, NAME) declares NAME.
            if prev == "(":
                k = j - 1
                while k >= 0 and m[k] in " \t":
                    k -= 1
                e = k + 1
                while k >= 0 and (m[k].isalnum() or m[k] == "_"):
                    k -= 1
                if PERCPU_MACRO.match(m[k + 1:e]):
                    i = self._skip_ws(i, lim)
                    if i < lim and m[i] == ",":
                        mm = _ID.match(m, self._skip_ws(i + 1, lim))
                        if mm:
                            names.append((mm.group(0), self.linecol(mm.start())[0]))
                    return names, inits
            single = True
        else:
            single = False
        while i < lim:
            i = self._skip_ws(i, lim)
            while i < lim:
                if m[i] == "*":
                    i = self._skip_ws(i + 1, lim)
                    continue
                mm = _ID.match(m, i)
                if mm and mm.group(0) in QUALIFIERS:
                    i = self._skip_ws(mm.end(), lim)
                    continue
                break
            mm = _ID.match(m, i)
            if not mm:
                return names, inits
            names.append((mm.group(0), self.linecol(mm.start())[0]))
            i = self._skip_ws(mm.end(), lim)
            if single or (i < lim and m[i] == "("):
                return names, inits        # parameter / function
            # array bounds, attributes, initialiser
            while i < lim and m[i] not in ",;)}{":
                if m[i] == "=":
                    s = i + 1
                    i = self._skip_balanced(s, lim)
                    inits.append((s, i))
                    continue
                if m[i] in "([":
                    i = self._skip_balanced(i + 1, lim)
                    if i < lim and m[i] in ")]":
                        i += 1
                    continue
                i += 1
            if i >= lim or m[i] != ",":
                return names, inits
            i += 1
        return names, inits

    def decl_index(self, path):
        """{type token offset: kept?} and kept initialiser spans."""
        if self._decls is None:
            toks, spans = {}, []
            for mt in re.finditer(r"\bspinlock_t\b", self.masked):
                names, inits = self.declarators(mt.start(), mt.end())
                kept = decl_kept(path, names, mt.start(), self)
                toks[mt.start()] = (kept, names)
                if kept:
                    spans.extend(inits)
            self._decls = (toks, spans)
        return self._decls


def src(path):
    """The text index of a file, read again once evicted: one spatch
    process may go through thousands of files, the cache holds 16."""
    f = _FILES.pop(path, None)
    if f is None:
        f = SrcFile(path)
        if len(_FILES) >= 16:
            del _FILES[next(iter(_FILES))]
    _FILES[path] = f
    return f


def decl_kept(rel, names, off, sf):
    line, col0 = sf.linecol(off)
    if (rel, line, col0 + 1) in KEEP_SITES:
        USED_SITES.add((rel, line, col0 + 1))
        return True
    hits = [(rel, l, n) for (n, l) in names if (rel, l, n) in KEEP_DECLS]
    if hits:
        USED_DECLS.update(hits)
        if len(hits) != len(names):
            lt_warn("%s:%d: declaration of %s mixes kept and converted "
                    "locks: all kept" % (rel, line, ", ".join(n for n, _ in names)))
        return True
    if KEEP_PARAMS and len(names) == 1:
        fp = sf.param_of(off)
        if fp and ((None, fp[0], fp[1]) in KEEP_PARAMS or
                   (rel, fp[0], fp[1]) in KEEP_PARAMS):
            return True
    kept = KEEP_MEMBERS if sf.in_record(off) else KEEP_NAMES
    return bool(names) and all(n in kept for (n, _) in names)


# ---- decisions: "skip" | "keep" | "convert" ----

def _where(path, line, col0, func):
    rel = lt_rel(path)
    SEEN_FILES[rel] = path
    if EXCLUDE_FILES.match(rel):
        # nothing is converted there, but a kept lock's type changes
        # under the code that uses it (percpu-rwsem.c takes a wait
        # queue's lock): the positions the scan resolved follow it
        if line in src(path).define_of_line:
            return rel, None, "skip"
        return rel, None, "excluded"
    if func in IMPL:
        return rel, None, "skip"
    sf = src(path)
    if line in sf.define_of_line:
        return rel, sf, "define"
    return rel, sf, None


def site_decision(path, line, col0, name, func=None, sf=None):
    """API name written at path:line:col0 (0-based column)."""
    if sf is None:
        rel, sf, d = _where(path, line, col0, func)
        if d == "excluded":
            return _kept_at(rel, line, col0)
        if d == "skip" or d == "define":
            return "skip"
    else:
        rel = lt_rel(path)
    key = (rel, line, col0 + 1)
    if key in KEEP_SITES:
        USED_SITES.add(key)
        return "keep"
    if name == "__SPIN_LOCK_UNLOCKED":
        o = sf.off(line, col0)
        for (s, e) in sf.decl_index(rel)[1]:
            if s <= o < e:
                return "keep"
    if name in BY_POSITION_ONLY:
        return "convert"
    # by name: its argument is the lock (for __SPIN_LOCK_UNLOCKED its
    # lockdep name, written as the lock: .lock = __SPIN_LOCK_UNLOCKED(x.lock))
    arg, member = lock_arg_name(sf, sf.off(line, col0) + len(name), name)
    return name_decision(rel, arg, member)


def name_decision(rel, name, member):
    """A use the scan has no site for, by the lock's name (a field's
    when member): kept where keep_names says only kept locks have it,
    everywhere or in rel."""
    if name in (KEEP_MEMBERS if member else KEEP_NAMES):
        return "keep"
    if name and (rel, ("." if member else "") + name) in FILE_KEEP_NAMES:
        return "keep"
    return "convert"


# the argument that is the lock, where it is not the first
LOCK_ARG = {"atomic_dec_and_lock": 1, "atomic_dec_and_lock_irqsave": 1,
            "refcount_dec_and_lock": 1, "refcount_dec_and_lock_irqsave": 1,
            "kref_put_lock": 2, "kfifo_is_empty_spinlocked": 1,
            "kfifo_is_empty_spinlocked_noirqsave": 1,
            "seqcount_spinlock_init": 1, "SEQCNT_SPINLOCK_ZERO": 1}
for _k in LOCK_T_MAP:
    if _k.startswith("wait_event") and "lock_irq" in _k:
        LOCK_ARG[_k] = 2
    elif _k.startswith("kfifo_") and "empty" not in _k:
        LOCK_ARG[_k] = 3


def lock_arg_name(sf, i, name=None):
    """(NAME, member?): the name the lock argument of the call of name
    (the first argument unless LOCK_ARG says) whose name ends at offset i
    ends in: &x->a.NAME (a member), &NAME[i], NAME, NAME(...)."""
    m = sf.masked
    n = len(m)
    while i < n and m[i] in WS:
        i += 1
    if i >= n or m[i] != "(":
        return None, False
    for _ in range(LOCK_ARG.get(name, 0)):
        i = sf._skip_balanced(i + 1, min(n, i + 2000))
        if i >= n or m[i] != ",":
            return None, False
    end = sf._skip_balanced(i + 1, min(n, i + 2000))
    return arg_name(m[i + 1:end])


def arg_name(arg):
    """lock_arg_name() of the argument text arg."""
    arg = arg.rstrip()
    while arg.endswith("]") or arg.endswith(")"):
        # an index or a call's arguments: the name before them
        close = arg[-1]
        opening = "[" if close == "]" else "("
        depth = 0
        for k in range(len(arg) - 1, -1, -1):
            if arg[k] == close:
                depth += 1
            elif arg[k] == opening:
                depth -= 1
                if depth == 0:
                    break
        if close == ")" and not re.search(r"[A-Za-z_]\w*\s*$", arg[:k]):
            arg = arg[k + 1:-1].rstrip()     # (x): a parenthesised lock
            continue
        if close == ")" and re.search(r"\bACCESS_PRIVATE\s*$", arg[:k]):
            # ACCESS_PRIVATE(p, NAME): the __private field p->NAME
            mm = re.search(r",\s*([A-Za-z_]\w*)\s*\)$", arg[k:])
            return (mm.group(1), True) if mm else (None, False)
        arg = arg[:k].rstrip()
        # DEFINE_SPINLOCK(x __attribute__((unused))): the lock is x
        arg = re.sub(r"\s+__attribute__$", "", arg)
    mm = re.search(r"(\.|->)?\s*([A-Za-z_]\w*)$", arg)
    if not mm:
        return None, False
    return mm.group(2), mm.group(1) is not None


def _kept_at(rel, line, col0=None, name=None):
    """In an excluded file: "keep" where keep_sites names the position
    (col0) or keep_decls the declaration of name, else "skip"."""
    if col0 is not None and (rel, line, col0 + 1) in KEEP_SITES:
        USED_SITES.add((rel, line, col0 + 1))
        return "keep"
    if name is not None and (rel, line, name) in KEEP_DECLS:
        USED_DECLS.add((rel, line, name))
        return "keep"
    return "skip"


def type_decision(path, line, col0, func=None, sf=None):
    """spinlock_t token at path:line:col0."""
    if sf is None:
        rel, sf, d = _where(path, line, col0, func)
        if d == "excluded":
            return _kept_excluded_decl(rel, path, line, col0)
        if d == "skip" or d == "define":
            return "skip"
    else:
        rel = lt_rel(path)
    o = sf.off(line, col0)
    ent = sf.decl_index(rel)[0].get(o)
    if ent is None:
        # not where the text scan expected it (should not happen)
        names, _ = sf.declarators(o, o + len("spinlock_t"))
        kept = decl_kept(rel, names, o, sf)
    else:
        kept = ent[0]
    return "keep" if kept else "convert"


def _kept_excluded_decl(rel, path, line, col0):
    """type_decision() in an excluded file: kept only by position."""
    sf = src(path)
    o = sf.off(line, col0)
    names, _ = sf.declarators(o, o + len("spinlock_t"))
    for (n, l) in names:
        if _kept_at(rel, l, name=n) == "keep":
            return "keep"
    return _kept_at(rel, line, col0)


def seqcount_decision(path, line, col0, func=None):
    """seqcount_spinlock_t token at path:line:col0: "keep" (retype it to
    seqcount_raw_spinlock_t) when keep_decls names what it declares."""
    rel, sf, d = _where(path, line, col0, func)
    if d is not None:
        return "skip"
    o = sf.off(line, col0)
    names, _ = sf.declarators(o, o + len("seqcount_spinlock_t"))
    hits = [(rel, l, n) for (n, l) in names if (rel, l, n) in KEEP_DECLS]
    USED_DECLS.update(hits)
    return "keep" if hits else "convert"


def named_decl_decision(path, line, col0, name, func=None):
    """DEFINE_SPINLOCK(name), DEFINE_PER_CPU(spinlock_t, name): name at
    path:line:col0."""
    rel, sf, d = _where(path, line, col0, func)
    if d == "excluded":
        return _kept_at(rel, line, name=name)
    if d == "skip" or d == "define":
        return "skip"
    if (rel, line, name) in KEEP_DECLS:
        USED_DECLS.add((rel, line, name))
        return "keep"
    if name in KEEP_NAMES:
        return "keep"
    return "convert"


# ---- positions: Coccinelle re-parses a function or declaration that an
# earlier rule has modified from a temporary file (cocci_small_output-*),
# and later rules see positions in that file.  pos() maps them back to the
# original file: the element's offset by voting on identical lines, the
# column by token index (the rules only rename identifiers, so a modified
# line has the same tokens as the original one).

_TEMP = {}


_CANON = {}
for _k, (_a, _b) in LOCK_T_MAP.items():
    for _n in (_k, _a, _b):
        if _n:
            _CANON[_n] = _k
_CANON["DEFINE_RAW_SPINLOCK"] = _CANON["DEFINE_LOCK"] = "DEFINE_SPINLOCK"


def _canon(line):
    """line (comments blanked) with every old or new name of the table
    spelled the old way, blanks squeezed"""
    return " ".join(re.sub(r"[A-Za-z_]\w*",
                           lambda m: _CANON.get(m.group(0), m.group(0)),
                           line).split())


def _tokens(line):
    return [m.start() for m in re.finditer(r"\w+|\S", line)]


def pos(p):
    """(path, line, col0) in the original file of position p[0]."""
    f, line, col = p[0].file, int(p[0].line), int(p[0].column)
    base = os.path.basename(f)
    if not base.startswith("cocci_small_output"):
        _ORIGS.setdefault(base, set()).add(f)
        return f, line, col
    try:
        with open(f, "rb") as fh:
            ttext = fh.read().decode("latin-1")
    except OSError:
        ttext = ""
    # cocci_small_output-PID-HASH-BASENAME: which original file?
    cands = sorted(set().union(*[v for k, v in _ORIGS.items()
                                 if base.endswith("-" + k)] or [set()]))
    if not cands:
        return f, line, col
    best = None
    for orig in cands:
        r = _map_temp(orig, ttext, line, col)
        if best is None or r[0] > best[0]:
            best = r
    return best[1]


_ORIGS = {}


def _map_temp(orig, ttext, line, col):
    """(votes, (orig, line, col)) for the temporary text ttext in orig"""
    sf = src(orig)
    key = (orig, ttext)
    tl = _mask(ttext).split("\n")
    if sf.lines is None:
        sf.lines = sf.masked.split("\n")
    ol = sf.lines
    hit = _TEMP.get(key)
    if hit is None:
        if sf.line_index is None:
            idx = {}
            for n, l in enumerate(ol, 1):
                k = _canon(l)
                if len(k) > 3:
                    idx.setdefault(k, []).append(n)
            sf.line_index = idx
        votes = {}
        for n, l in enumerate(tl, 1):
            cands = sf.line_index.get(_canon(l), ())
            if 0 < len(cands) <= 64:
                for c in cands:
                    votes[c - n] = votes.get(c - n, 0) + 1
        if votes:
            off = max(votes, key=lambda k: (votes[k], -abs(k)))
            hit = (votes[off], off)
        else:
            hit = (0, 0)
        if len(_TEMP) > 256:
            _TEMP.clear()
        _TEMP[key] = hit
    nvotes, off = hit
    oline = line + off
    if 1 <= line <= len(tl) and 1 <= oline <= len(ol) and tl[line - 1] != ol[oline - 1]:
        tt, ot = _tokens(tl[line - 1]), _tokens(ol[oline - 1])
        if col in tt and tt.index(col) < len(ot):
            col = ot[tt.index(col)]
    return nvotes, (orig, oline, col)


def _pos_checked(p, expect):
    """pos(p), or None (with a warning) if the original text there is not
    the token expected."""
    f, l, c = pos(p)
    sf = src(f)
    if l < 1 or l > len(sf.starts):
        o = -1
    else:
        o = sf.off(l, c)
    if o < 0 or sf.masked[o:o + len(expect)] != expect:
        lt_warn("%s:%s:%s: could not map spatch position back to the source "
                "(%s expected): left unchanged" % (lt_rel(f), l, c + 1, expect))
        return None
    return f, l, c


def site_decision_p(p, name):
    r = _pos_checked(p, name)
    if r is None:
        return "skip"
    if name == "spinlock_t":
        return type_decision(r[0], r[1], r[2], p[0].current_element)
    return site_decision(r[0], r[1], r[2], name, p[0].current_element)


def type_decision_p(p):
    r = _pos_checked(p, "spinlock_t")
    if r is None:
        return "skip"
    return type_decision(r[0], r[1], r[2], p[0].current_element)


def seqcount_decision_p(p):
    r = _pos_checked(p, "seqcount_spinlock_t")
    if r is None:
        return "skip"
    return seqcount_decision(r[0], r[1], r[2], p[0].current_element)


def named_decl_decision_p(p, name):
    r = _pos_checked(p, name)
    if r is None:
        return "skip"
    return named_decl_decision(r[0], r[1], r[2], name, p[0].current_element)


def where_p(p):
    f, l, c = pos(p)
    return "%s:%d:%d" % (lt_rel(f), l, c + 1)


_RAW_OK = {}


def raw_target(name):
    tgt = LOCK_T_MAP[name][1]
    if tgt is None:
        return None
    hdr = RAW_ERA_DEPENDENT.get(tgt)
    if hdr is None:
        return tgt
    if tgt not in _RAW_OK:
        ok = False
        if OPTS["tree"]:
            try:
                with open(os.path.join(OPTS["tree"], hdr), encoding="latin-1") as f:
                    ok = re.search(r"\b%s\b" % tgt, f.read()) is not None
            except OSError:
                ok = False
        _RAW_OK[tgt] = ok
    return tgt if _RAW_OK[tgt] else None


# scope-based guard classes (linux/cleanup.h): guard(CLASS)(&l),
# scoped_guard(CLASS, &l), scoped_cond_guard(CLASS, fail, &l)
GUARD_MAP = {}
for _g in ("", "_irq", "_bh", "_irqsave"):
    for _t in ("", "_try"):
        GUARD_MAP["spinlock" + _g + _t] = ("lock_t" + _g + _t,
                                           "raw_spinlock" + _g + _t)
GUARD_WORD = re.compile(r"(scoped_cond_guard|scoped_guard|guard)\b")
GUARD_USE = re.compile(r"\b(scoped_cond_guard|scoped_guard|guard)\s*\(\s*"
                       r"(spinlock\w*)\s*([,)])")


def guard_uses(sf):
    """(offset of the class name, class, lock argument text, offset of
    the guard macro's name) of every guard on a spinlock class in sf."""
    m = sf.masked
    for g in GUARD_USE.finditer(m):
        if g.group(2) not in GUARD_MAP:
            continue
        i = g.end()
        if g.group(3) == ")":       # guard(CLASS)(lock)
            while i < len(m) and m[i] in WS:
                i += 1
            if i >= len(m) or m[i] != "(":
                continue
            i += 1
        elif g.group(1) == "scoped_cond_guard":    # (CLASS, fail, lock)
            i = sf._skip_balanced(i, min(len(m), i + 2000)) + 1
        end = sf._skip_balanced(i, min(len(m), i + 2000))
        yield g.start(2), g.group(2), m[i:end], g.start(1)


def guard_decision(rel, arg, site=None):
    """A guard the scan saw on a kept lock has its site, (line, col1) of
    the guard macro's name, in keep_sites; one it did not see is decided
    by the lock's name, as a call the scan did not see."""
    if site is not None and (rel, site[0], site[1]) in KEEP_SITES:
        return "keep"
    return name_decision(rel, *arg_name(arg))


def new_guard(cls, decision):
    """Replacement for guard class cls, or None to leave it."""
    if decision == "convert":
        return GUARD_MAP[cls][0]
    if decision == "keep" and OPTS["raw"]:
        return GUARD_MAP[cls][1]
    return None


def new_name(name, decision, where):
    """Replacement for name, or None to leave it."""
    if decision == "convert":
        return LOCK_T_MAP[name][0]
    if decision == "keep" and OPTS["raw"]:
        tgt = raw_target(name)
        if tgt is None:
            lt_warn("%s: kept lock uses %s, which has no raw_spinlock_t form "
                    "in this tree: left unchanged" % (where, name))
        return tgt
    return None


def report_unused():
    """Warn about keep entries of processed files that matched nothing
    (entries on #define lines belong to lock_t_text.py)."""
    for (p, l, c) in sorted(KEEP_SITES - USED_SITES):
        if p not in SEEN_FILES:
            continue
        sf = src(SEEN_FILES[p])
        # guards are lock_t_text.py's, as #define lines are
        if l not in sf.define_of_line and \
                not GUARD_WORD.match(sf.masked, sf.off(l, c - 1)):
            lt_warn("keep_sites entry %s:%d:%d not matched" % (p, l, c))
    for (p, l, n) in sorted(KEEP_DECLS - USED_DECLS):
        if p in SEEN_FILES and l not in src(SEEN_FILES[p]).define_of_line:
            lt_warn("keep_decls entry %s:%d:%s not matched" % (p, l, n))
# <<< lock_t core

@initialize:python@
keep_sites << virtual.keep_sites;
@@
lt_load_sites(keep_sites)

@initialize:python@
keep_decls << virtual.keep_decls;
@@
lt_load_decls(keep_decls)

@initialize:python@
keep_names << virtual.keep_names;
@@
lt_load_names(keep_names)

@initialize:python@
raw << virtual.raw;
@@
lt_set_raw(raw)

@initialize:python@
tree << virtual.tree;
@@
lt_set_tree(tree)

// ---------------------------------------------------------------------
// API names, and spinlock_t where spatch parses it as an expression (a
// macro argument: DEFINE_PER_CPU_SHARED_ALIGNED(spinlock_t, x),
// container_of(p, spinlock_t, m), ...): every name of the table used as an
// expression (a call, a function pointer, the body of an alias macro).
// The new name depends on the position: computed in Python (api_new) and
// substituted by api_rename.
// ---------------------------------------------------------------------
@api_name@
identifier f = {
  spin_lock, spin_lock_bh, spin_lock_irq, spin_lock_irqsave,
  spin_lock_nested, spin_lock_nest_lock, spin_lock_irqsave_nested,
  spin_unlock, spin_unlock_bh, spin_unlock_irq, spin_unlock_irqrestore,
  spin_trylock, spin_trylock_bh, spin_trylock_irq, spin_trylock_irqsave,
  spin_lock_init, spin_is_locked, spin_is_contended, assert_spin_locked,
  spin_can_lock, spin_unlock_wait, __SPIN_LOCK_UNLOCKED,
  cond_resched_lock, spin_needbreak,
  atomic_dec_and_lock, atomic_dec_and_lock_irqsave,
  refcount_dec_and_lock, refcount_dec_and_lock_irqsave, kref_put_lock,
  wait_event_lock_irq, wait_event_lock_irq_cmd, wait_event_lock_irq_timeout,
  wait_event_interruptible_lock_irq, wait_event_interruptible_lock_irq_cmd,
  wait_event_interruptible_lock_irq_timeout,
  kfifo_in_spinlocked, kfifo_out_spinlocked, kfifo_in_spinlocked_noirqsave,
  kfifo_out_spinlocked_noirqsave, kfifo_is_empty_spinlocked,
  kfifo_is_empty_spinlocked_noirqsave, kfifo_in_locked, kfifo_out_locked,
  seqcount_spinlock_init, SEQCNT_SPINLOCK_ZERO,
  spinlock_t
};
position p;
@@
f@p

@script:python api_new@
f << api_name.f;
p << api_name.p;
g;
@@
d = site_decision_p(p, f)
n = None if d == "skip" else new_name(f, d, where_p(p))
if n is None:
    cocci.include_match(False)
else:
    coccinelle.g = cocci.make_ident(n)

@api_rename@
identifier api_name.f;
position api_name.p;
identifier api_new.g;
@@
- f@p
+ g

// ---------------------------------------------------------------------
// DEFINE_SPINLOCK(x), at file scope or in a function: x is the declared
// name (keep_decls: the line of the macro).
// ---------------------------------------------------------------------
@spinlock_def_to_lock@
declarer name DEFINE_SPINLOCK, DEFINE_LOCK;
identifier x;
position px : script:python (x) { named_decl_decision_p(px, x) == "convert" };
@@
- DEFINE_SPINLOCK(x@px);
+ DEFINE_LOCK(x);

@spinlock_def_to_raw@
declarer name DEFINE_SPINLOCK, DEFINE_RAW_SPINLOCK;
identifier x;
position px : script:python (x) {
  OPTS["raw"] and named_decl_decision_p(px, x) == "keep"
};
@@
- DEFINE_SPINLOCK(x@px);
+ DEFINE_RAW_SPINLOCK(x);

// ---------------------------------------------------------------------
// Per-cpu locks: DEFINE_PER_CPU(spinlock_t, x), DECLARE_PER_CPU(...).
// (Coccinelle's standard.h knows these two; the other DEFINE_PER_CPU_*
// variants are spinlock_t macro arguments, done by api_name above.)
// ---------------------------------------------------------------------
@percpu_to_lock_t@
typedef spinlock_t, lock_t;
declarer name DEFINE_PER_CPU, DECLARE_PER_CPU;
identifier x;
position px : script:python (x) { named_decl_decision_p(px, x) == "convert" };
expression E;
@@
(
DEFINE_PER_CPU(
- spinlock_t
+ lock_t
  , x@px);
|
DEFINE_PER_CPU(
- spinlock_t
+ lock_t
  , x@px) = E;
|
DECLARE_PER_CPU(
- spinlock_t
+ lock_t
  , x@px);
)

@percpu_to_raw@
typedef spinlock_t, raw_spinlock_t;
declarer name DEFINE_PER_CPU, DECLARE_PER_CPU;
identifier x;
position px : script:python (x) {
  OPTS["raw"] and named_decl_decision_p(px, x) == "keep"
};
expression E;
@@
(
DEFINE_PER_CPU(
- spinlock_t
+ raw_spinlock_t
  , x@px);
|
DEFINE_PER_CPU(
- spinlock_t
+ raw_spinlock_t
  , x@px) = E;
|
DECLARE_PER_CPU(
- spinlock_t
+ raw_spinlock_t
  , x@px);
)

// ---------------------------------------------------------------------
// spinlock_t as a type: fields, variables, parameters, return types,
// typedefs, casts, sizeof.  Kept when its declaration is in keep_decls (or
// the token itself is in keep_sites).
// ---------------------------------------------------------------------
@type_to_lock_t@
typedef spinlock_t;
typedef lock_t;
position p : script:python () { type_decision_p(p) == "convert" };
@@
- spinlock_t@p
+ lock_t

@type_to_raw@
typedef spinlock_t;
typedef raw_spinlock_t;
position p : script:python () {
  OPTS["raw"] and type_decision_p(p) == "keep"
};
@@
- spinlock_t@p
+ raw_spinlock_t

// ---------------------------------------------------------------------
// A seqcount whose lock is kept: seqcount_spinlock_t holds a spinlock_t *
// with lockdep and on PREEMPT_RT; seqcount_raw_spinlock_t the kept lock's
// raw_spinlock_t *.  Its declaration is in keep_decls.
// ---------------------------------------------------------------------
@seqcount_to_raw@
typedef seqcount_spinlock_t;
typedef seqcount_raw_spinlock_t;
position p : script:python () {
  OPTS["raw"] and seqcount_decision_p(p) == "keep"
};
@@
- seqcount_spinlock_t@p
+ seqcount_raw_spinlock_t

@finalize:python@
@@
report_unused()
