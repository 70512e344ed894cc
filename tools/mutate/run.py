#!/usr/bin/env python3
"""tools/book mutate: run every chapter's exact and model claims against each mutant of the library
(tools/mutate/mutants.py) and record which claims each one makes fail.

A ✓ in the book is a promise that its check would have failed had the rule behind it been broken.
This is the evidence. Each mutant is one edit of one source file, made in a scratch copy of that
file, never in the checkout. The main build (build/default, already built) says which of its
object files were compiled from that file (ninja's dependency log): only those are compiled again,
with the edit, by their own compile commands; the libraries they belong to are packed again with
them, and the chapters that link any of them are linked again (their own link commands) into the
scratch folder. Each such chapter then runs with `--kind exact,model --statuses`, and every claim
that no longer passes is said to be killed by that mutant; a chapter that crashes or runs past
its time limit under a mutant kills all of its claims that were run. A chapter no edited object
reaches runs exactly as unmutated, so its claims are not run again.

  run.py --record FILE        run every mutant and write the record (docs/recorded/mutants/record.json)
  run.py --check FILE [--only ID,...]
                              run the mutants (or these) and fail unless each kills exactly the
                              claims the record says (tools/book test --all runs them all this way)

The record holds, besides the kills, a digest of the mutant catalogue and of each claim's
statement, so that the embed tool can refuse a build whose claims or mutants changed since.
Standard library only; needs ninja, ar and the build's compilers.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import cpp_functions  # noqa: E402
from mutants import MUTANTS, catalogue_digest, statement_digest  # noqa: E402

KINDS = "exact,model"
CHAPTER_TIMEOUT = 120  # seconds; the unmutated chapters run these claims in about 1 s


def say(msg):
    print(f"mutate: {msg}", flush=True)


def run(argv, cwd, what, timeout=600):
    """Runs argv; on failure, stops with what failed and the tail of its output."""
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise SystemExit(f"mutate: {what} failed ({r.returncode}):\n  {shlex.join(argv)[:800]}\n"
                         + (r.stdout + r.stderr)[-3000:])
    return r.stdout


class Build:
    """What the main build says of itself: compile and link commands, and what each object read."""

    def __init__(self, build_dir):
        self.dir = os.path.abspath(build_dir)
        cache = open(os.path.join(self.dir, "CMakeCache.txt"), encoding="utf-8").read()
        self.root = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", cache, re.M).group(1)
        launcher = re.search(r"^STRIDED_CCACHE:FILEPATH=(.*)$", cache, re.M)
        self.ccache = launcher.group(1) if launcher and os.path.exists(launcher.group(1)) else None
        # Each object's compile command, found by its -o.
        self.compile = {}
        with open(os.path.join(self.dir, "compile_commands.json"), encoding="utf-8") as f:
            for entry in json.load(f):
                argv = shlex.split(entry["command"])
                obj = argv[argv.index("-o") + 1]
                self.compile[obj] = (entry["directory"], argv)
        # What each object read (ninja's dependency log), and each static library's members.
        self.deps = {}
        obj = None
        for line in run(["ninja", "-C", self.dir, "-t", "deps"], self.dir, "ninja -t deps").splitlines():
            if line and not line.startswith(" "):
                obj = line.split(":", 1)[0]
                self.deps[obj] = set()
            elif line.strip() and obj:
                # As the compiler wrote them: relative to the build folder when ccache's base
                # directory made the paths it passed on relative.
                self.deps[obj].add(os.path.normpath(os.path.join(self.dir, line.strip())))
        self.members = {}
        with open(os.path.join(self.dir, "build.ninja"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"build (\S+\.a): CXX_STATIC_LIBRARY_LINKER__\S+ ([^|]*)", line)
                if m:
                    self.members[m.group(1)] = m.group(2).split()

    def chapters(self):
        names = sorted(f[:-4] for f in os.listdir(os.path.join(self.root, "chapters"))
                       if f[:2].isdigit() and f.endswith(".cpp"))
        return names

    def exe(self, name):
        return os.path.join(self.dir, "chapters", f"chapter_{name}")

    def link(self, name):
        """The chapter's link command (without its post-build step), as argv."""
        target = f"chapters/chapter_{name}"
        cmd = run(["ninja", "-C", self.dir, "-t", "commands", "-s", target], self.dir,
                  f"ninja -t commands {target}").strip()
        steps = [s.strip() for s in cmd.split(" && ")]
        links = [s for s in steps if " -o " + target + " " in s + " "]
        if len(links) != 1:
            raise SystemExit(f"mutate: cannot find the link step of {target} in: {cmd[:300]}")
        return shlex.split(links[0])


def mirror(src_root, rel, dest):
    """dest: the checkout seen through symbolic links, except the path to `rel`, whose folders are
    real and whose file is left for the caller to write. Returns the file's path in dest."""
    parts = rel.split("/")
    here_src, here_dst = src_root, dest
    for i, part in enumerate(parts):
        os.makedirs(here_dst, exist_ok=True)
        for entry in os.listdir(here_src):
            if entry != part:
                os.symlink(os.path.join(here_src, entry), os.path.join(here_dst, entry))
        here_src, here_dst = os.path.join(here_src, part), os.path.join(here_dst, part)
    return here_dst


def apply(text, m):
    at = cpp_functions.occurrences(text, m["function"], m["find"])
    if len(at) != 1:
        raise SystemExit(f"mutate: mutant {m['id']}: its text occurs {len(at)} times in "
                         f"{m['function']} of {m['file']} (it must occur once); update "
                         "tools/mutate/mutants.py")
    return text[:at[0]] + m["replace"] + text[at[0] + len(m["find"]):]


def chapter_statuses(exe, known=()):
    """{claim: status} of one chapter program, and why it broke (or None). A chapter that broke
    counts every claim of `known` it lists as crashed."""
    broken = None
    try:
        r = subprocess.run([exe, "--kind", KINDS, "--statuses"], capture_output=True, text=True,
                           timeout=CHAPTER_TIMEOUT)
        out = r.stdout
        if r.returncode not in (0, 1):
            broken = f"exit code {r.returncode}"
    except subprocess.TimeoutExpired:
        out, broken = "", f"ran past {CHAPTER_TIMEOUT} s"
    got = {cid: st.strip() for cid, st in
           (line.split("\t", 1) for line in out.splitlines() if "\t" in line)}
    if broken:
        listed = subprocess.run([exe, "--list"], capture_output=True, text=True)
        ids = [line.split("\t", 1)[0] for line in listed.stdout.splitlines() if "\t" in line]
        got = {cid: got.get(cid, "crashed") for cid in ids if cid in known}
    return got, broken


class Mutation:
    """One mutant built from the main build's objects in work/, and its chapters run."""

    def __init__(self, build, links, m, work):
        self.b, self.links, self.m, self.work = build, links, m, work

    def path(self, rel):  # a build-relative path's place in the scratch folder
        return os.path.join(self.work, "build", rel)

    def compile(self, obj, src_mirror):
        directory, argv = self.b.compile[obj]
        root = self.b.root + "/"
        src_i = argv.index("-c") + 1
        src = os.path.join(directory, argv[src_i])
        argv = [a.replace(root, src_mirror + "/") for a in argv]
        if os.path.commonpath([src, self.b.dir]) == self.b.dir:
            # A unity batch in the build folder: its includes point into the checkout.
            text = open(src, encoding="utf-8").read()
            batch = self.path(obj) + os.path.splitext(src)[1]
            os.makedirs(os.path.dirname(batch), exist_ok=True)
            with open(batch, "w", encoding="utf-8") as f:
                f.write(text.replace(root, src_mirror + "/"))
            argv[src_i] = batch
        out = self.path(obj)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        argv[argv.index("-o") + 1] = out
        if self.b.ccache:
            argv = [self.b.ccache] + argv
        env_argv = ["env", f"CCACHE_BASEDIR={self.b.root}", "CCACHE_NOHASHDIR=1"] + argv
        run(env_argv, directory, f"mutant {self.m['id']}: compiling {obj}")

    def build(self):
        """Compiles the edited objects, packs their libraries, links the chapters they reach.
        Returns {chapter: scratch program} for those chapters."""
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        src_mirror = os.path.join(self.work, "src")
        mutated = mirror(self.b.root, self.m["file"], src_mirror)
        original = open(os.path.join(self.b.root, self.m["file"]), encoding="utf-8").read()
        with open(mutated, "w", encoding="utf-8") as f:
            f.write(apply(original, self.m))
        target = os.path.normpath(os.path.join(self.b.root, self.m["file"]))
        reached = {arg for argv in self.links.values() for arg in argv}
        reached |= {o for a in reached if a in self.b.members for o in self.b.members[a]}
        edited = sorted(o for o, deps in self.b.deps.items() if target in deps and o in reached)
        if not edited:
            raise SystemExit(f"mutate: mutant {self.m['id']}: no object of a chapter was compiled "
                             f"from {self.m['file']}; is build/default built?")
        for obj in edited:
            self.compile(obj, src_mirror)
        replaced = {o: self.path(o) for o in edited}
        for lib, objs in self.b.members.items():
            if any(o in replaced for o in objs):
                out = self.path(lib)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                run(["ar", "qcs", out] + [replaced.get(o, o) for o in objs], self.b.dir,
                    f"mutant {self.m['id']}: packing {lib}")
                replaced[lib] = out
        programs = {}
        for name, argv in self.links.items():
            if not any(a in replaced for a in argv):
                continue
            argv = [replaced.get(a, a) for a in argv]
            out = self.path(f"chapters/chapter_{name}")
            argv[argv.index("-o") + 1] = out
            os.makedirs(os.path.dirname(out), exist_ok=True)
            run(argv, self.b.dir, f"mutant {self.m['id']}: linking chapter_{name}")
            programs[name] = out
        return programs


def run_mutant(build, links, m, base, owner, scratch):
    """Builds and runs one mutant. base: {claim: status} unmutated; owner: {claim: chapter}. A
    relinked chapter's claims count as crashed unless it reports them passed."""
    t0 = time.monotonic()
    work = os.path.join(scratch, m["id"])
    programs = Mutation(build, links, m, work).build()
    got = {c: st for c, st in base.items() if owner[c] not in programs}
    broken = {}
    for name, exe in programs.items():
        statuses, why = chapter_statuses(exe, set(base))
        got.update(statuses)
        if why:
            broken[name] = why
    killed = sorted(c for c in base if got.get(c, "crashed") != "passed")
    shutil.rmtree(work, ignore_errors=True)
    return ({"id": m["id"], "rule": m["rule"], "file": m["file"], "kills": killed,
             **({"broken_chapters": broken} if broken else {})},
            sorted(programs), time.monotonic() - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"),
                    help="the main build, already built (default: build/default)")
    ap.add_argument("--record", help="run every mutant and write the record here")
    ap.add_argument("--check", help="compare the mutants run with this record")
    ap.add_argument("--only", help="comma-separated mutant IDs (default: all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="mutants built and run at once (default: the number of cores)")
    args = ap.parse_args(argv)
    if bool(args.record) == bool(args.check):
        ap.error("give one of --record FILE or --check FILE")

    chosen = MUTANTS
    if args.only:
        wanted = args.only.split(",")
        unknown = [w for w in wanted if w not in {m["id"] for m in MUTANTS}]
        if unknown:
            ap.error(f"unknown mutant(s): {', '.join(unknown)}")
        chosen = [m for m in MUTANTS if m["id"] in wanted]
    record = None
    if args.check:
        with open(args.check, encoding="utf-8") as f:
            record = json.load(f)
        if record.get("catalogue") != catalogue_digest():
            say(f"{args.check} was made from another mutant catalogue: run tools/book mutate")
            return 1

    t0 = time.monotonic()
    build = Build(args.build_dir)
    names = build.chapters()
    missing = [n for n in names if not os.path.exists(build.exe(n))]
    if missing:
        say(f"{args.build_dir} has no chapter program for {', '.join(missing)}: build it first")
        return 1
    links = {n: build.link(n) for n in names}
    statements, base, owner = {}, {}, {}
    for n in names:
        listed = run([build.exe(n), "--list"], build.dir, f"chapter_{n} --list")
        for line in listed.splitlines():
            cid, _, statement = line.partition("\t")
            statements[cid] = statement
        statuses, why = chapter_statuses(build.exe(n))
        if why:
            say(f"the unmutated chapter_{n} broke: {why}")
            return 1
        base.update(statuses)
        owner.update({c: n for c in statuses})
    failing = sorted(c for c, st in base.items() if st != "passed")
    if failing:
        say(f"the unmutated chapters do not pass: {failing}")
        return 1
    say(f"{len(base)} exact and model claims pass unmutated ({time.monotonic() - t0:.0f} s)")

    scratch = os.path.join(build.dir, "mutants")
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(run_mutant, build, links, m, base, owner, scratch): m for m in chosen}
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            result, relinked, seconds = fut.result()
            results[result["id"]] = result
            broken = result.get("broken_chapters")
            say(f"[{i}/{len(chosen)}] {result['id']}: kills {len(result['kills'])} claim(s) "
                f"in {len(relinked)} relinked chapter(s)"
                + (f", chapters broken: {broken}" if broken else "") + f" ({seconds:.0f} s)")
    results = [results[m["id"]] for m in chosen]

    if args.check:
        recorded = {r["id"]: r for r in record.get("mutants", [])}
        bad = 0
        for r in results:
            want = recorded.get(r["id"], {}).get("kills")
            if want is None:
                say(f"{r['id']}: not in the record; run tools/book mutate")
                bad += 1
            elif sorted(want) != r["kills"]:
                more = sorted(set(r["kills"]) - set(want))
                fewer = sorted(set(want) - set(r["kills"]))
                say(f"{r['id']} ({r['rule']}) no longer kills what the record says: "
                    + (f"now also {', '.join(more)}; " if more else "")
                    + (f"no longer {', '.join(fewer)}" if fewer else "")
                    + " — run tools/book mutate")
                bad += 1
        say(f"{len(results)} mutants checked against {args.check}: "
            + ("as recorded" if not bad else f"{bad} differ")
            + f" ({time.monotonic() - t0:.0f} s in all)")
        return 1 if bad else 0

    killed_any = {c for r in results for c in r["kills"]}
    survivors = sorted(c for c in base if c not in killed_any)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    out = {
        "format": 1,
        "catalogue": catalogue_digest(),
        "commit": commit,
        "kinds": KINDS,
        "claims": {c: statement_digest(statements[c]) for c in sorted(base)},
        "mutants": results,
        "not_killed": survivors,
    }
    with open(args.record, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    say(f"{len(results)} mutants; {len(base) - len(survivors)} of {len(base)} exact and model "
        f"claims killed by at least one; record written to {args.record} "
        f"({time.monotonic() - t0:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
