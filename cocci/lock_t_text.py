#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Textual fallback rule of cocci/lock_t.cocci.

lock_t.cocci never rewrites a token on a #define line: Coccinelle cannot
parse the bodies of macros that generate functions (block/kyber-iosched.c
KYBER_DEBUGFS_DOMAIN_ATTRS, lib/locking-selftest.c), and rewriting such a
body through one of its expansions fails the whole file with "try to delete
an expanded token".  Coccinelle also skips declarations it cannot parse
(6.1: struct klist and struct address_space, whose closing brace carries
__attribute__((aligned(...)))).  This script converts what spatch left:

  * always: the bodies of #define directives (after the macro name and
    parameter list);
  * with --orig-root DIR (DIR = the same tree before conversion, e.g. the
    pristine checkout): also every other line that spatch left exactly as
    it was in DIR, i.e. code spatch did not parse.  Run it after spatch;
  * always: the class of a scope-based guard on a spinlock
    (guard(spinlock_irqsave)(&l), scoped_guard(spinlock, &l),
    scoped_cond_guard(spinlock_try, ...)): lock_t_irqsave, lock_t, ... or,
    kept and with --raw, raw_spinlock_irqsave, ...  A guard the scan saw
    on a kept lock has its site in keep_sites; the others are decided by
    the lock's name, as keep_names says;
  * in #define bodies, an API name pasted from a prefix ("spin_ ## action
    (&l)"): "lock_t_ ## action", for lock.h's lock_t_lock(),
    lock_t_unlock_irq() ..., or, kept and with --raw, "raw_spin_ ##
    action"; decided by the lock's name.

It uses the decision code and mapping table of lock_t.cocci (the Python
block between the "lock_t core" markers is executed from the .cocci, so
there is one table): every token that is a mapped API name,
DEFINE_SPINLOCK, __SPIN_LOCK_UNLOCKED or spinlock_t (comments, string
literals, ->/. members and declared names such as a field "spin_lock"
excluded) is decided as spatch does, on the
original text: keep_sites by path:line:col, keep_decls by the declared
name, keep_names by the name alone, --raw for the kept ones.  Left alone: the lock implementation files
(EXCLUDE_FILES), the bodies of macros named in IMPL and the file-scope
definitions and prototypes of functions named in IMPL (spin_needbreak(),
__cond_resched_lock(), kref_put_lock(), ...).  Without --orig-root the
#define bodies are the only lines touched, so it may run before or after
spatch.

Usage (cwd = tree root, paths relative to it, as for spatch):
  lock_t_text.py [--keep-sites F] [--keep-decls F] [--keep-names F] [--raw]
                 [--tree DIR]
                 [--orig-root DIR] [--in-place | --diff] FILE...
Without --in-place the converted text goes to stdout (one file) or, with
--diff, a unified diff of every file.  Exit status 0; warnings on stderr.
"""
import argparse
import difflib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# "spin_ ## action(": up to the call's opening parenthesis
PASTED_API = re.compile(r"\bspin_(?=\s*##)\s*##\s*\w+\s*\(")


def load_core(cocci_path):
    text = open(cocci_path, encoding="utf-8").read()
    m = re.search(r"^# >>> lock_t core\n(.*?)^# <<< lock_t core", text,
                  re.S | re.M)
    if not m:
        sys.exit("lock_t_text: no lock_t core block in %s" % cocci_path)
    ns = {"__name__": "lock_t_core"}
    exec(compile(m.group(1), cocci_path + ":lock_t core", "exec"), ns)
    return ns


def _match_close(m, i, opening, closing):
    """offset of the bracket closing the one at m[i]"""
    depth = 0
    for j in range(i, len(m)):
        if m[j] == opening:
            depth += 1
        elif m[j] == closing:
            depth -= 1
            if depth == 0:
                return j
    return len(m)


_IMPL_RE = {}


def _top_level(m):
    """[start, end) spans of m outside every {} block (a stray closing
    brace counts, as it would for a compiler: what follows is nested
    one level less)"""
    spans, depth, start = [], 0, 0
    for b in re.finditer(r"[{}]", m):
        before = depth
        depth += 1 if b.group(0) == "{" else -1
        if before == 0:
            spans.append((start, b.start()))
        if depth == 0:
            start = b.end()
    if depth == 0:
        spans.append((start, len(m)))
    return spans


def impl_regions(sf, impl):
    """[start, end) spans of the file-scope definitions and prototypes of
    the functions named in impl (their parameters and bodies)."""
    m = list(sf.masked)
    for (_name, _body, end, line) in sf.defines:    # blank #define lines
        for k in range(sf.starts[line - 1], end):
            if m[k] != "\n":
                m[k] = " "
    m = "".join(m)
    key = frozenset(impl)
    names = _IMPL_RE.get(key)
    if names is None:
        names = re.compile(r"(?<![A-Za-z0-9_])(?:%s)\s*\(" % "|".join(
            sorted((re.escape(n) for n in impl), key=len, reverse=True)))
        _IMPL_RE[key] = names
    spans = []
    for (lo, hi) in _top_level(m):
        depth, at = 0, lo
        for t in names.finditer(m, lo, hi):
            if spans and t.start() < spans[-1][1]:
                continue            # in the last one's parameters or body
            # a macro's argument (TRACE_EVENT's TP_fast_assign code) or
            # a declaration macro (DEFINE_SPINLOCK(x)) defines nothing
            seg = m[max(at, spans[-1][1] if spans else lo):t.start()]
            depth += seg.count("(") - seg.count(")")
            at = t.start()
            if depth > 0 or t.group(0).rstrip("( \t\n").isupper():
                continue
            e = _match_close(m, t.end() - 1, "(", ")")
            k2 = e + 1
            while k2 < len(m) and m[k2] not in "{;":
                k2 += 1
            if k2 < len(m) and m[k2] == "{":
                e = _match_close(m, k2, "{", "}")
            else:
                e = k2
            spans.append((t.start(), e + 1))
    return spans


def convert_file(core, path, orig_root=None):
    """Return the new text of path (or None if unchanged)."""
    rel = core["lt_rel"](path)
    if core["EXCLUDE_FILES"].match(rel):
        return None
    cur_text = open(path, "rb").read().decode("latin-1")
    opath = os.path.join(orig_root, rel) if orig_root else path
    if not os.path.exists(opath):
        return None
    # decisions on the original text; its lines are the coordinates
    sf = core["src"](opath)
    core["SEEN_FILES"][rel] = opath
    # the core decides on paths relative to the tree: pretend opath is path
    sf_key_path = path
    core["_FILES"][sf_key_path] = sf
    orig_lines = sf.text.split("\n")
    cur_lines = cur_text.split("\n")
    names = set(core["LOCK_T_MAP"])
    m = sf.masked
    # which lines may be touched
    allowed = set()
    define_body = []
    for (mname, body, end, _line) in sf.defines:
        if mname in core["IMPL"]:
            continue
        i = body
        if i < end and m[i] == "(":  # function-like: skip parameters
            j = m.find(")", i)
            i = end if j < 0 or j > end else j + 1
        define_body.append((i, end))
    define_lines = set(sf.define_of_line)
    if orig_root:
        same = set(n for n in range(1, min(len(orig_lines), len(cur_lines)) + 1)
                   if orig_lines[n - 1] == cur_lines[n - 1])
        if len(orig_lines) != len(cur_lines):
            core["lt_warn"]("%s: line count changed since %s: only #define "
                            "bodies converted" % (rel, opath))
            same = set()
    else:
        same = set()
    impl = impl_regions(sf, core["IMPL"])

    def in_spans(o, spans):
        return any(s <= o < e for s, e in spans)

    def editable(off, line):
        """May the word at off, on line, be rewritten here?"""
        if line in define_lines:
            return in_spans(off, define_body) and \
                not (orig_root and line not in same)
        return line in same and not in_spans(off, impl)

    edits = []                     # (offset, old, new)
    for tok in re.finditer(r"[A-Za-z_]\w*", m):
        name = tok.group(0)
        if name not in names:
            continue
        off = tok.start()
        line, col0 = sf.linecol(off)
        if not editable(off, line):
            continue
        # a member (x->spin_lock, x.spin_lock) is not the API
        k = off - 1
        while k >= 0 and m[k] in " \t":
            k -= 1
        if k >= 0 and (m[k] == "." or (m[k] == ">" and k > 0 and m[k - 1] == "-")):
            continue
        # a bare API name as a macro's argument is a name, not a use of
        # the API: FN(spin_lock) in the BPF helper list of
        # include/uapi/linux/bpf.h (BPF_FUNC_spin_lock is ABI)
        if name != "spinlock_t" and k >= 0 and m[k] in "(,":
            j = tok.end()
            while j < len(m) and m[j] in " \t":
                j += 1
            if j < len(m) and m[j] in "),":
                continue
        # nor a name being declared (struct comedi_subdevice's
        # "spinlock_t spin_lock;"): after a type word or '*', before
        # ; , [ = : ) -- or the last of several declarators (", name;"),
        # unlike an argument (", name)") -- spatch leaves these alone too
        if name != "spinlock_t" and k >= 0:
            j = tok.end()
            while j < len(m) and m[j] in " \t":
                j += 1
            nxt = m[j] if j < len(m) else ""
            if ((m[k] == "*" or m[k].isalnum() or m[k] == "_")
                    and nxt and nxt in ";,[=:)"):
                continue
            if m[k] == "," and nxt and nxt in ";[=":
                continue
        where = "%s:%d:%d" % (rel, line, col0 + 1)
        if name == "spinlock_t":
            d = core["type_decision"](path, line, col0, sf=sf)
        elif name == "DEFINE_SPINLOCK":
            a = re.match(r"\s*\(\s*([A-Za-z_]\w*)\s*(?:\)|__attribute__)", m[off + len(name):off + 200])
            key = (rel, line, a.group(1)) if a else None
            if key and key in core["KEEP_DECLS"]:
                core["USED_DECLS"].add(key)
                d = "keep"
            else:
                d = core["site_decision"](path, line, col0, name, sf=sf)
        else:
            d = core["site_decision"](path, line, col0, name, sf=sf)
        new = core["new_name"](name, d, where)
        if new is not None and new != name:
            edits.append((line, col0, name, new))
    # the spinlock_t inside a kept lock (lockref.c's CMPXCHG_LOOP reads
    # old.lock.rlock.raw_lock): a raw_spinlock_t is that lock itself
    for mt in re.finditer(r"(?:\.|->)\s*([A-Za-z_]\w*)(\.rlock)\b", m):
        line, col0 = sf.linecol(mt.start(2))
        if not core["OPTS"]["raw"] or not editable(mt.start(2), line):
            continue
        if mt.group(1) in core["KEEP_MEMBERS"] or \
                (rel, "." + mt.group(1)) in core["FILE_KEEP_NAMES"]:
            edits.append((line, col0, ".rlock", ""))
    # guard classes: spatch never rewrites them, on any line
    for (off, cls, arg, at) in core["guard_uses"](sf):
        line, col0 = sf.linecol(off)
        if in_spans(off, impl) or (line in define_lines and
                                   not in_spans(off, define_body)):
            continue
        at_line, at_col0 = sf.linecol(at)
        new = core["new_guard"](cls, core["guard_decision"](
            rel, arg, (at_line, at_col0 + 1)))
        if new is not None:
            edits.append((line, col0, cls, new))
    # an API name pasted from a prefix in a macro's body
    # (sound/core/pcm_native.c: "spin_ ## action(&group->lock)"): lock.h's
    # lock_t_lock(), lock_t_unlock_irq() ... are made for that; decided
    # by the lock's name, as a call the scan did not see
    for mt in PASTED_API.finditer(m):
        line, col0 = sf.linecol(mt.start())
        if line not in define_lines or not editable(mt.start(), line):
            continue
        end = sf._skip_balanced(mt.end(), min(len(m), mt.end() + 2000))
        d = core["name_decision"](
            rel, *core["arg_name"](m[mt.end():end].split(",")[0]))
        if d == "convert":
            edits.append((line, col0, "spin_", "lock_t_"))
        elif d == "keep" and core["OPTS"]["raw"]:
            edits.append((line, col0, "spin_", "raw_spin_"))
    if not edits:
        return None
    out_lines = list(cur_lines)
    by_line = {}
    for (line, col0, old, new) in edits:
        by_line.setdefault(line, []).append((col0, old, new))
    for line, lst in by_line.items():
        text = out_lines[line - 1]
        for col0, old, new in sorted(lst, reverse=True):
            if text[col0:col0 + len(old)] != old:
                # a line spatch rewrote before it: the one such word there
                hits = [h.start() for h in
                        re.finditer(r"\b%s\b" % re.escape(old), text)]
                if len(hits) == 1:
                    col0 = hits[0]
            if text[col0:col0 + len(old)] != old:
                core["lt_warn"]("%s:%d:%d: %s not found: left unchanged"
                                % (rel, line, col0 + 1, old))
                continue
            text = text[:col0] + new + text[col0 + len(old):]
        out_lines[line - 1] = realign_backslash(cur_lines[line - 1], text)
    return "\n".join(out_lines)


def _width(s):
    col = 0
    for ch in s:
        col = (col // 8 + 1) * 8 if ch == "\t" else col + 1
    return col


def realign_backslash(old, new):
    """Keep a macro's continuation backslash in the column it was in."""
    mo = re.match(r"^(.*?\S)([ \t]+)\\(\r?)$", old)
    mn = re.match(r"^(.*?\S)([ \t]+)\\(\r?)$", new)
    if not mo or not mn or old == new:
        return new
    target = _width(old[:len(mo.group(1)) + len(mo.group(2))])
    body = mn.group(1)
    if _width(body) >= target:
        return body + " \\" + mn.group(3)
    pad = ""
    while _width(body + pad + "\t") <= target:
        pad += "\t"
    pad += " " * (target - _width(body + pad))
    return body + pad + "\\" + mn.group(3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep-sites")
    ap.add_argument("--keep-decls")
    ap.add_argument("--keep-names")
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("--tree")
    ap.add_argument("--orig-root")
    ap.add_argument("--cocci", default=os.path.join(HERE, "lock_t.cocci"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--in-place", action="store_true")
    g.add_argument("--diff", action="store_true")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    core = load_core(a.cocci)
    if a.keep_sites:
        core["lt_load_sites"](a.keep_sites)
    if a.keep_decls:
        core["lt_load_decls"](a.keep_decls)
    if a.keep_names:
        core["lt_load_names"](a.keep_names)
    core["lt_set_raw"]("1" if a.raw else "0")
    core["lt_set_tree"](a.tree)
    for path in a.files:
        old = open(path, "rb").read().decode("latin-1")
        new = convert_file(core, path, a.orig_root)
        if a.in_place:
            if new is not None:
                with open(path, "w", encoding="latin-1", newline="") as f:
                    f.write(new)
        elif a.diff:
            if new is not None:
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), new.splitlines(True),
                    "a/" + path, "b/" + path))
        else:
            sys.stdout.write(new if new is not None else old)
    return 0


if __name__ == "__main__":
    sys.exit(main())
