"""The plan of a pre-registered confirmatory batch: written and committed before any of its data exists, so that
what decides each verdict, what is measured and how, when the batch is complete and what is reported can be shown
fixed in advance.

    python -m apsp_kernels.study.preregistration write [--out PATH] [--device KIND] [--batch ID] [--leases N]
    python -m apsp_kernels.study.preregistration check PATH
    python -m apsp_kernels.study.preregistration markdown PATH [--out docs/preregistration.md]

The plan (YAML) names the commit it was written at, the method's and the measuring code's fingerprints
(measure/provenance.py), the claims file's hash, every claim with the quantity, value, tolerance, rule and sizes
that decide it, the batch's design (command lines, device, leases per setting), its stopping rule and what will be
reported.  Its hash is the sha256 of the file's bytes.  A process measuring with $APSP_PREREGISTRATION set to the
plan records that hash and refuses to start where the tree's fingerprints are not the plan's
(provenance.preregistration); tests/test_preregistration.py checks every recorded batch that names a plan."""
from __future__ import annotations

import argparse
import ast
import datetime as _dt
import hashlib
import inspect
import subprocess
import sys
from pathlib import Path

import yaml

from ..algorithms import registry
from ..measure import provenance
from .method import claims as claims_mod
from .seeds.iitkgp import spec as iitkgp_spec
from .seeds.kemp import profiles as kemp_profiles

ROOT = provenance.ROOT
PLANS = Path("data") / "preregistration"
DEVICE = "nvidia-h100"          # the reference batches' model (H100 80GB HBM3)
MIN_LEASES = 3                  # the fewest that give an interval over leases a t with two degrees of freedom
MIN_TWO_GPU_LEASES = 5          # the two-GPU claims rested on 3 processes, 2 of them sharing a lease: more here

# What a claim says it divides, and by what: copied from the claim as data/claims.yaml has it, never filled in.
QUANTITY_FIELDS = ("quantity", "time", "unit", "algorithm", "variant", "algorithms", "algorithm_variants", "variants",
                   "baseline", "baseline_variant", "baselines", "baseline_variants", "stage", "faster", "graph",
                   "bound", "advantage", "occurs", "invert", "parameters")

# The kinds whose rule the study's verdicts module applies itself and passes to method/verdicts.evaluate as
# ``decided`` (DECIDE maps them to a function that only reads it): the method's rules of that shape.
STUDY_DECIDES = {"trend": ("trend_rule", "trend_with_points_rule", "constant_rule", "slope_rule"),
                 "occurrence": ("occurrence_rule",)}

# The IIT Kharagpur invocations of docs/seeds/iitkgp.md: each well inside the device's 10 minutes a command, the
# large graphs one invocation each (geometric one stage each).  graphs None: the stages' graphs but the large ones.
IITKGP_INVOCATIONS = ((("bfs", "sssp", "coarsen"), None), (("bfs", "sssp", "coarsen"), ("as-skitter",)),
                      (("apsp",), None), (("bfs",), ("geometric",)), (("sssp",), ("geometric",)),
                      (("coarsen",), ("geometric",)))

# The NTHU two-GPU commands of scripts/device_nthu_multi.sh (the reference campaign's settings), each its own setting.
NTHU_MULTI = {
    "scaling": "--sizes 2048 4096 8192 16384 32768 --gpus 1 2 --weak --repeats 3",
    "stage": "--sizes 6000 --gpus 1 2 --syncs row rowcol whole "
             "--kernels b8-dim3-branch b16-dim3-branch b32-dim3-branch b64-dim3-branch --repeats 3",
    "big": "--sizes 65536 --gpus 1 2 --syncs row",
    "weak": "--sizes 8192 16384 --gpus 1 2 --syncs row --weak --weak-from 8192 16384 --repeats 3",
}

STOPPING_RULE = [
    "No two processes of one setting share a lease: lease K (a fresh machine of the setting's device kind) runs "
    "the command numbered K of every setting of that kind, in calls of at most 10 minutes on the same machine, "
    "and nothing else; settings share leases, a setting's processes never do.",
    "A lease that fails or is lost (a command that exits non-zero, a machine taken away, records lost in transfer) "
    "is run again on a fresh lease with the same command; the failure is recorded in the batch's FAILURES.md (lease, "
    "command, what happened), never dropped silently, and its partial records are kept apart, not pooled.",
    "No verdict, table or figure of a partial batch is computed or looked at before the batch is complete.",
    "The batch is complete when every setting of the design has its leases, each with its records and a provenance "
    "that names this plan's sha256; then, and only then, the verdicts are computed, once.",
]
REPORT = [
    "A table of every claim of this plan: its reference verdict and number (the recorded batches' verdicts as "
    "committed at method_commit), its confirmatory verdict and number (this batch), and same/different.",
    "It is reported whichever way it comes out: every claim, the not-testable ones with their reasons.",
    "A difference is a finding, reported as one; it is never fixed by changing the method.",
    "A method change afterwards (a different method fingerprint) is a new plan and a new batch; this batch's verdicts "
    "stay those computed under this plan.",
]


def two_gpu_codes():
    """The codes that run on several GPUs (their launcher takes a GPU count): a claim about one is a two-GPU claim."""
    return {a.name for a in registry.ALGORITHMS.values() if "n_gpus" in inspect.signature(a.launcher).parameters}


def sha256_of(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _git(root, *args):
    out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
    if out.returncode:
        raise RuntimeError(f"git {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def dirty(root=ROOT):
    """Why the tree at ``root`` is not its HEAD (tracked files changed, or files the fingerprints hash that git does
    not hold); [] where it is.  A plan names HEAD, so its fingerprints must be HEAD's."""
    why = [f"changed: {line[3:]}" for line in _git(root, "status", "--porcelain", "--untracked-files=no").splitlines()]
    for name, globs in (("method", provenance.METHOD_GLOBS), ("code", provenance.CODE_GLOBS)):
        if provenance.code_fingerprint(root, globs) != provenance.fingerprint_of_commit("HEAD", root, globs):
            why.append(f"the {name} fingerprint of the files is not HEAD's (an untracked file it hashes?)")
    return why


def _rule_calls(tree, names=None):
    """The method's rules (``rules.x`` / ``order_rules.x``) called in ``tree``, or in its functions ``names``."""
    found = set()
    scopes = [tree] if names is None else [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in names]
    for scope in scopes:
        for node in ast.walk(scope):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in ("rules", "order_rules") and node.attr.endswith("_rule")):
                found.add(f"{node.value.id}.{node.attr}")
    return found


def kind_rules(root=ROOT):
    """{kind: (its decide function, the method's rules it calls)}, read from method/verdicts.py's DECIDE table."""
    tree = ast.parse((Path(root) / "apsp_kernels/study/method/verdicts.py").read_text())
    table = next(n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "DECIDE" for t in n.targets))
    return {k.value: (v.id, sorted(_rule_calls(tree, {v.id}))) for k, v in zip(table.keys, table.values)}


def rule_texts(root=ROOT):
    """{"rules.x": the first line of its docstring} of every rule of method/rules.py and method/order_rules.py."""
    out = {}
    for mod in ("rules", "order_rules"):
        tree = ast.parse((Path(root) / f"apsp_kernels/study/method/{mod}.py").read_text())
        for fn in tree.body:
            if isinstance(fn, ast.FunctionDef) and fn.name.endswith("_rule"):
                out[f"method.{mod}.{fn.name}"] = " ".join((ast.get_docstring(fn) or "").split("\n\n")[0].split())
    return out


def rule_of(c, kinds, study_calls):
    """The rule that decides claim ``c``: its kind's, as method/verdicts.py dispatches it, and for a kind the
    study decides itself, the rules of that shape its verdicts module calls."""
    if not c.get("testable_here", True):
        return {"rule": "none: not testable here", "reason": c.get("not_testable_reason")}
    fn, called = kinds[c["kind"]]
    if not called:
        called = sorted(r for r in study_calls if r.split(".")[1] in STUDY_DECIDES.get(c["kind"], ()))
    return {"rule": " or ".join(f"method.{r}" for r in called) or "none found",
            "dispatch": f"method/verdicts.py DECIDE[{c['kind']!r}] -> {fn}",
            "rows": f"apsp_kernels/study/seeds/{c['study']}/verdicts.py"}


def _setting(name, study, device, leases, commands, results, env=None):
    return {"name": name, "study": study, "device": device, "leases": leases, "one_lease_each": True,
            "commands": [{"lease": k, "command": cmd} for k, cmd in commands], "results": results,
            **({"environment": env} if env else {})}


def design(batch, device=DEVICE, leases=MIN_LEASES, two_gpu_leases=MIN_TWO_GPU_LEASES):
    """Every setting of the batch: its study, device kind, leases and the command of each lease."""
    if leases < MIN_LEASES or two_gpu_leases < MIN_TWO_GPU_LEASES:
        raise ValueError(f"at least {MIN_LEASES} leases a setting and {MIN_TWO_GPU_LEASES} for the two-GPU claims")
    paper = kemp_profiles.profile("paper")["processes"]      # --lease K runs main process K and its satellites
    if paper < MIN_LEASES:
        raise ValueError(f"the paper profile has {paper} main processes, fewer than {MIN_LEASES} leases")
    m = "python -m apsp_kernels.study measure"
    # a lease's main process (~8 min on an H100) and its satellites (~2 min) in two calls: one call may run 10 min
    kemp = [(k, f"./run_all.sh --profile paper --batch {batch} --processes {','.join(map(str, part))} --stage measure")
            for k in range(1, paper + 1)
            for part in (lambda ps: (ps[:1], ps[1:]) if len(ps) > 1 else (ps,))(kemp_profiles.processes_of_lease("paper", k))]
    out = [_setting("kemp-campaign", "kemp", device, paper, kemp, f"data/results/{batch}-paper-campaign/"),
           _setting("hochberg", "hochberg", device, leases,
                    [(k, f"{m} hochberg --batch {batch} --process {k} --strict") for k in range(1, leases + 1)],
                    f"data/results/{batch}-hochberg/p<lease>/")]
    S = iitkgp_spec.load()
    for stages, graphs in IITKGP_INVOCATIONS:
        name = "_".join(stages) + (f"-{'_'.join(graphs)}" if graphs else "")
        g = f" --graphs {','.join(graphs)}" if graphs else ""
        out.append(_setting(f"iitkgp-{name}", "iitkgp", device, leases,
                            [(k, f"{m} iitkgp --batch {batch} --stages {','.join(stages)}{g} --processes 1 "
                                 f"--out $APSP_RESULTS_DIR/{batch}-iitkgp/{name}-lease{k}") for k in range(1, leases + 1)],
                            f"data/results/{batch}-iitkgp/{name}-lease<lease>/")
                   | {"stages": list(stages), "graphs": iitkgp_spec.graphs_for(S, stages, list(graphs) if graphs else None)})
    out.append(_setting("nthu-single", "nthu", device, leases,
                        [(k, f"{m} nthu single") for k in range(1, leases + 1)],
                        "data/results/<time>-nthu-single/ (one folder a lease, its provenance naming this plan)"))
    for stage, args in NTHU_MULTI.items():
        out.append(_setting(f"nthu-multi-{stage}", "nthu", f"{device}-x2", two_gpu_leases,
                            [(k, f"{m} nthu multi {args}") for k in range(1, two_gpu_leases + 1)],
                            "data/results/<time>-nthu-multi/ (one folder a lease, its provenance naming this plan)",
                            env={"NCCL_NVLS_ENABLE": "0"}) | {"two_gpu": True})
    return out


def settings_of(c, settings):
    """The settings whose records decide claim ``c``."""
    st = c["study"]
    if st == "iitkgp":
        want = set(c.get("graphs") or [])
        return [s["name"] for s in settings if s["study"] == st and c.get("stage") in s["stages"]
                and (not want or want & set(s["graphs"]))]
    if st == "nthu":
        two = bool(two_gpu_codes() & {c.get("algorithm"), *(c.get("algorithms") or [])})
        return [s["name"] for s in settings if s["study"] == st and bool(s.get("two_gpu")) == two]
    return [s["name"] for s in settings if s["study"] == st]


def claim_entry(c, kinds, study_calls, settings):
    """One claim as the plan fixes it: every value copied from data/claims.yaml."""
    names = settings_of(c, settings)
    leases = {s["name"]: s["leases"] for s in settings}
    return {"id": c["id"], "study": c["study"], "kind": c["kind"],
            "quantity": {k: c[k] for k in QUANTITY_FIELDS if c.get(k) is not None},
            "claimed": c.get("claimed"), "tolerance": c.get("tolerance"),
            **rule_of(c, kinds, study_calls),
            "paper_n": c.get("paper_n"), **({"paper_n_step": c["paper_n_step"]} if c.get("paper_n_step") else {}),
            "graphs": c.get("graphs"), "testable_here": c.get("testable_here", True),
            "settings": names, "leases": min((leases[n] for n in names), default=0)}


def build(batch, out, device=DEVICE, leases=MIN_LEASES, two_gpu_leases=MIN_TWO_GPU_LEASES, root=ROOT, claims_path=None):
    """The plan as a dict (written by :func:`write`; ``out``: where it will lie, for the commands' environment)."""
    root = Path(root)
    claims_path = Path(claims_path or root / "data" / "claims.yaml")
    raw = yaml.safe_load(claims_path.read_text(encoding="utf-8"))["claims"]   # as written: nothing expanded
    claims_mod.load(claims_path)        # the file loads as the method loads it (a tolerance where a rule needs one)
    settings = design(batch, device, leases, two_gpu_leases)
    kinds = kind_rules(root)
    calls = {st: _rule_calls(ast.parse((root / f"apsp_kernels/study/seeds/{st}/verdicts.py").read_text()))
             for st in {c["study"] for c in raw}}
    claims = [claim_entry(c, kinds, calls[c["study"]], settings) for c in raw]
    try:
        plan_path = Path(out).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        plan_path = str(out)
    return {
        "written": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "method_commit": _git(root, "rev-parse", "HEAD").strip(),
        "method_fingerprint": provenance.code_fingerprint(root, provenance.METHOD_GLOBS),
        "method_globs": list(provenance.METHOD_GLOBS),
        "code_fingerprint": provenance.code_fingerprint(root),
        "claims_file": claims_path.resolve().relative_to(root.resolve()).as_posix()
        if claims_path.resolve().is_relative_to(root.resolve()) else str(claims_path),
        "claims_sha256": sha256_of(claims_path),
        "design": {
            "batch": batch,
            "device": device,
            "one_model": f"The whole batch runs on one model of GPU, {device}'s (the two-GPU settings on {device}-x2, "
                         "two of the same cards); a lease on another model is a failed lease",
            "environment": {"APSP_PREREGISTRATION": plan_path,
                            "APSP_GIT_COMMIT": "the commit that adds this plan (its method and code are method_commit's)",
                            "APSP_RESULTS_DIR": "the device's $OUT (scripts/device_env.sh); its records are copied into "
                                                "data/results/ as each setting's results say"},
            "leases_rule": f"At least {MIN_LEASES} leases a setting, each of its processes on a lease of its own (lease K "
                           "runs process K of every setting of its device kind); "
                           f"{MIN_TWO_GPU_LEASES} for the settings of the two-GPU claims (the kemp campaign's satellites "
                           "share the lease of their main process, as its paper profile has them)",
            "settings": settings,
            "stopping_rule": STOPPING_RULE,
            "complete_when": "every setting has its leases, each with records and a provenance naming this plan",
        },
        "report": REPORT,
        "claims": claims,
        "rules": {r: text for r, text in rule_texts(root).items() if any(r in c["rule"] for c in claims)},
    }


def write(out=None, device=DEVICE, batch=None, leases=MIN_LEASES, two_gpu_leases=MIN_TWO_GPU_LEASES, root=ROOT):
    """Write the plan to ``out`` (default data/preregistration/<batch>.yaml); refuses a dirty tree.  Returns
    (path, sha256)."""
    root = Path(root)
    why = dirty(root)
    if why:
        raise SystemExit("refusing to write a plan from a dirty tree (it names HEAD): " + "; ".join(why))
    batch = batch or _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    out = Path(out) if out else root / PLANS / f"{batch}.yaml"
    plan = build(batch, out, device, leases, two_gpu_leases, root)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump(plan), encoding="utf-8")
    return out, sha256_of(out)


def dump(plan):
    """The plan's file text: its bytes are what its sha256 is of."""
    return ("# A pre-registered confirmatory batch (apsp_kernels/study/preregistration.py): fixed before any of its data "
            "existed.\n" + yaml.safe_dump(plan, sort_keys=False, allow_unicode=True, width=120))


def check(path, root=ROOT):
    """What is wrong with the plan at ``path`` against this tree ([]: nothing): every claim covered, the leases,
    the claims file, and the fingerprints of this tree and of the plan's commit."""
    root = Path(root)
    plan = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    bad = []
    claims_path = root / plan.get("claims_file", "data/claims.yaml")
    if sha256_of(claims_path) != plan.get("claims_sha256"):
        bad.append(f"{claims_path.name} is not the file the plan hashed")
    ids = [c["id"] for c in yaml.safe_load(claims_path.read_text(encoding="utf-8"))["claims"]]
    planned = [c["id"] for c in plan.get("claims") or []]
    if sorted(ids) != sorted(planned):
        bad.append(f"claims not in the plan: {sorted(set(ids) - set(planned))}; in the plan only: {sorted(set(planned) - set(ids))}")
    settings = {s["name"]: s for s in plan["design"]["settings"]}
    for s in settings.values():
        need = MIN_TWO_GPU_LEASES if s.get("two_gpu") else MIN_LEASES
        if s["leases"] < need or len({c["lease"] for c in s["commands"]}) != s["leases"]:
            bad.append(f"setting {s['name']}: {s['leases']} leases, {len(s['commands'])} commands; needs {need} leases, one command each")
    for c in plan.get("claims") or []:
        if c.get("testable_here", True) and not c.get("settings"):
            bad.append(f"claim {c['id']}: no setting decides it")
        if any(n not in settings for n in c.get("settings") or []):
            bad.append(f"claim {c['id']}: names a setting the design lacks")
    for key, globs in (("method_fingerprint", provenance.METHOD_GLOBS), ("code_fingerprint", provenance.CODE_GLOBS)):
        if provenance.code_fingerprint(root, globs) != plan.get(key):
            bad.append(f"this tree's {key} is not the plan's: a batch measured from it would be refused")
        at = provenance.fingerprint_of_commit(plan["method_commit"], root, globs)
        if at is not None and at != plan.get(key):
            bad.append(f"the {key} of method_commit {plan['method_commit'][:12]} is not the plan's")
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m apsp_kernels.study.preregistration", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the plan from this (clean) tree")
    w.add_argument("--out", default=None, help=f"default {PLANS}/<batch>.yaml")
    w.add_argument("--device", default=DEVICE, help="the device kind of every one-GPU setting (two-GPU: <kind>-x2)")
    w.add_argument("--batch", default=None, help="the batch id (default: now, UTC)")
    w.add_argument("--leases", type=int, default=MIN_LEASES, help=f"leases a setting (>= {MIN_LEASES})")
    w.add_argument("--two-gpu-leases", type=int, default=MIN_TWO_GPU_LEASES, help=f"(>= {MIN_TWO_GPU_LEASES})")
    c = sub.add_parser("check", help="check a plan against this tree")
    c.add_argument("path")
    md = sub.add_parser("markdown", help="render a plan as Markdown")
    md.add_argument("path")
    md.add_argument("--out", default=None, help="default: standard output (the lead's: docs/preregistration.md)")
    a = ap.parse_args(argv)
    if a.cmd == "write":
        try:
            path, sha = write(a.out, a.device, a.batch, a.leases, a.two_gpu_leases)
        except ValueError as e:
            ap.error(str(e))
        print(f"{path}: sha256 {sha}")
        return 0
    if a.cmd == "check":
        bad = check(a.path)
        print(f"{a.path}: sha256 {sha256_of(a.path)}")
        print("\n".join(bad) if bad else "ok: every claim planned, the leases, the claims file and the fingerprints")
        return 1 if bad else 0
    from .preregistration_md import render
    text = render(yaml.safe_load(Path(a.path).read_text(encoding="utf-8")), sha256_of(a.path), a.path)
    if a.out:
        Path(a.out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
