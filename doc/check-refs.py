#!/usr/bin/env python3
"""make check: the documentation names only what exists, and the repository
refers to nothing outside itself.

1. In every guide (*.md), a name in backticks that is code must exist:
   - a call, `name()` or `name(args)`: an identifier of the tree's sources
     (or of Slurm's, for Slurm's own functions);
   - a file, `dir/name.c`, `name.[ch]`, `name.md`, ...: a file of the tree
     whose path ends so (or of Slurm's source);
   - one of our prefixed identifiers (dl_, sdl_, rt_, sim_, sj_, est_,
     bench_): an identifier of the tree.
2. No source, guide, test, script or benchmark cites a document that is
   not in the repository (the design notes, the feasibility notes and the
   paper summaries the project started from): doc/design.md and
   doc/slurm-facts.md hold what the code relies on.

   check-refs.py SRCDIR [SLURM_SOURCE_DIR]

Without a Slurm source tree, names found in neither tree are still errors,
but the report says the Slurm tree was not searched.  Before it checks the
tree it proves, on a guide it writes, that it catches a missing function,
a missing file and an outside reference.
"""
import os
import re
import subprocess
import sys
import tempfile

EXTS = r'(c|h|md|sh|mk|py|gp|json|bats|bash|am|ac|\[ch\]|[1-8])'
PATH_RE = re.compile(r'[a-z0-9_.][A-Za-z0-9_./\[\]-]*\.' + EXTS)
CALL_RE = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\([^()]*\)')
OURS_RE = re.compile(r'(dl|sdl|rt|sim|sj|est|bench)_[a-z0-9_]+')
IDENT_RE = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
# written so that this file does not match itself
OUTSIDE = [re.compile(p) for p in (r'DESIGN' + r' §', r'FEASIB' + r'ILITY',
                                   r'dige' + r'st', r'seeds' + r'/',
                                   r'/work/' + r'shared')]
SOURCE_EXTS = ('.c', '.h', '.sh', '.mk', '.am', '.ac', '.bash', '.bats',
               '.py', '.in')
SCANNED_DIRS = ('src/', 'doc/', 'test/', 'contrib/', 'bench/')


def tree_files(root):
    """The tree's files and whether they are a git checkout's (a release
    tarball holds only what is distributed, so file names are not checked
    there)."""
    if os.path.isdir(os.path.join(root, '.git')) or \
            os.path.isfile(os.path.join(root, '.git')):
        try:
            out = subprocess.run(['git', 'ls-files', '--cached', '--others',
                                  '--exclude-standard'], cwd=root, check=True,
                                 capture_output=True, text=True).stdout
            return [f for f in out.split('\n') if f], True
        except (OSError, subprocess.CalledProcessError):
            pass
    found = []
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if not d.startswith(('.', 'build', '_'))]
        for n in fn:
            found.append(os.path.relpath(os.path.join(dp, n), root))
    return found, False


def identifiers(root, files, skip=()):
    ids = set()
    for f in files:
        if f in skip:
            continue
        if f.endswith(SOURCE_EXTS) or '/' not in f:
            try:
                with open(os.path.join(root, f), errors='replace') as fh:
                    ids.update(IDENT_RE.findall(fh.read()))
            except OSError:
                pass
    return ids


def slurm_tree(path):
    if not path or not os.path.isdir(os.path.join(path, 'src')):
        return None, None
    files, ids = [], set()
    for dp, dn, fn in os.walk(os.path.join(path, 'src')):
        for n in fn:
            if n.endswith(('.c', '.h')):
                p = os.path.join(dp, n)
                files.append(os.path.relpath(p, path))
                with open(p, errors='replace') as fh:
                    ids.update(IDENT_RE.findall(fh.read()))
    return files, ids


def has_file(files, name):
    names = [name[:-4] + 'c', name[:-4] + 'h'] if name.endswith('.[ch]') \
        else [name]
    return any(f == n or f.endswith('/' + n) for f in files for n in names)


def check_guide(path, text, files, ids, sfiles, sids, check_files=True):
    errs = []
    for m in re.finditer(r'`([^`\n]+)`', text):
        s = m.group(1).strip()
        where = '%s:%d' % (path, text.count('\n', 0, m.start()) + 1)
        call = CALL_RE.fullmatch(s)
        if call:
            n = call.group(1)
            if n not in ids and not (sids and n in sids):
                errs.append('%s: `%s`: no function %s in the tree%s' %
                            (where, s, n, '' if sids is not None else
                             ' (Slurm source not searched)'))
            continue
        if PATH_RE.fullmatch(s) and re.search(r'[A-Za-z]', s.rsplit('.', 1)[0]):
            if check_files and not has_file(files, s) and not (sfiles and
                                               has_file(sfiles, s)):
                errs.append('%s: `%s`: no such file in the tree' %
                            (where, s))
            continue
        if OURS_RE.fullmatch(s) and s not in ids:
            errs.append('%s: `%s`: no such identifier in the tree' %
                        (where, s))
    return errs


def outside_refs(root, files, skip):
    errs = []
    for f in files:
        if not f.startswith(SCANNED_DIRS) or f in skip:
            continue
        try:
            with open(os.path.join(root, f), errors='replace') as fh:
                lines = fh.read().split('\n')
        except OSError:
            continue
        for i, line in enumerate(lines, 1):
            for pat in OUTSIDE:
                if pat.search(line):
                    errs.append('%s:%d: refers outside the repository: %s'
                                % (f, i, line.strip()[:100]))
                    break
    return errs


def run(root, slurm, check_files=None):
    files, is_git = tree_files(root)
    if check_files is None:
        check_files = is_git
    me = os.path.relpath(os.path.abspath(__file__), os.path.abspath(root))
    ids = identifiers(root, files, {me})
    sfiles, sids = slurm_tree(slurm)
    errs = []
    for f in files:
        if f.endswith('.md'):
            with open(os.path.join(root, f), errors='replace') as fh:
                errs += check_guide(f, fh.read(), files, ids, sfiles,
                                    sids, check_files)
    errs += outside_refs(root, files, {me})
    return errs, len(files)


def self_test(slurm):
    """The check must fail on what it is there for."""
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, 'doc'))
        os.makedirs(os.path.join(tmp, 'src'))
        with open(os.path.join(tmp, 'src', 'a.c'), 'w') as fh:
            fh.write('int dl_real(void) { return 0; }\n')
        with open(os.path.join(tmp, 'doc', 'g.md'), 'w') as fh:
            fh.write('`dl_real()` is in `src/a.c`; `_consult_estimator()`'
                     ' is not, nor `common/rt_vector.[ch]` nor `dl_gone`.\n')
        with open(os.path.join(tmp, 'src', 'b.c'), 'w') as fh:
            fh.write('/* see ' + 'DESIGN' + ' §4 */\n')
        errs, _ = run(tmp, None, check_files=True)
        text = '\n'.join(errs)
        want = ['_consult_estimator', 'rt_vector', 'dl_gone', 'src/b.c:1']
        missed = [w for w in want if w not in text]
        wrong = [e for e in errs if 'dl_real' in e or '`src/a.c`' in e]
        if missed or wrong or len(errs) != 4:
            print('self-test failed: missed %s, wrongly flagged %s' %
                  (missed, wrong))
            print(text)
            return False
    return True


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    root = sys.argv[1]
    slurm = sys.argv[2] if len(sys.argv) > 2 else ''
    if not self_test(slurm):
        return 1
    errs, n = run(root, slurm)
    for e in errs:
        print(e)
    if errs:
        print('%d reference(s) to fix (doc/check-refs.py)' % len(errs))
        return 1
    print('%d files: every code name in the guides exists, no outside '
          'reference%s' % (n, '' if slurm_tree(slurm)[0] is not None
                           else ' (no Slurm source tree searched)'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
