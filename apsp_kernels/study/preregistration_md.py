"""A pre-registration plan (study/preregistration.py) as Markdown, for docs/preregistration.md: the same content
as the YAML, which stays the record (its sha256 is what provenance names); this is only how a reader sees it."""
from __future__ import annotations


def _cell(v):
    """A table cell: lists joined, nothing as '-', no '|' to break the row."""
    if v is None or v == [] or v == "":
        return "-"
    if isinstance(v, (list, tuple)):
        v = ", ".join(map(str, v))
    elif isinstance(v, dict):
        v = "; ".join(f"{k}: {_cell(x)}" for k, x in v.items())
    return str(v).replace("|", "\\|").replace("\n", " ")


def _quantity(q):
    """Which time, which codes: the claim's own words for the quantity come after."""
    codes = [f"{q[k]}" + (f" ({q[v]})" if q.get(v) else "") for k, v in (("algorithm", "variant"), ("baseline", "baseline_variant"))
             if q.get(k)]
    return f"time: {q.get('time') or '-'}; " + (" / ".join(codes) or "-") + (f"; {q['quantity']}" if q.get("quantity") else "")


def _sizes(c):
    n = c.get("paper_n")
    text = f"{n[0]}..{n[-1]} every {c['paper_n_step']}" if c.get("paper_n_step") and n else _cell(n)
    return text + (f"; graphs {_cell(c['graphs'])}" if c.get("graphs") else "")


def _records(results):
    """Where a setting's records go: the folder as code, the words after it as words."""
    folder, _, words = results.partition(" ")
    return f"`{folder}`" + (f" {words}" if words else "")


def render(plan, sha256, path="the plan"):
    d = plan["design"]
    out = [f"# Pre-registered confirmatory batch `{d['batch']}`", "",
           f"The plan is `{path}`, sha256 `{sha256}` (the hash every provenance of the batch records). It was written "
           f"{plan['written']} at commit `{plan['method_commit']}`, before any of the batch's data existed.", "",
           f"- method fingerprint `{plan['method_fingerprint']}` (the files that turn measurements into verdicts: "
           f"{', '.join(f'`{g}`' for g in plan.get('method_globs') or [])})",
           f"- code fingerprint `{plan['code_fingerprint']}` (the measuring code)",
           f"- claims `{plan.get('claims_file', 'data/claims.yaml')}`, sha256 `{plan['claims_sha256']}`, "
           f"{len(plan['claims'])} claims", "",
           "A process measuring under the plan refuses to start where its tree's method or code fingerprint is not the "
           "plan's.", "", "## Design", "", d["one_model"] + ".", "", d["leases_rule"] + ".", "",
           "Every command runs with " + ", ".join(f"`{k}={v}`" if " " not in str(v) else f"`{k}` = {v}"
                                                  for k, v in d["environment"].items()) + ".", ""]
    for s in d["settings"]:
        env = "".join(f"{k}={v} " for k, v in (s.get("environment") or {}).items())
        out += [f"### {s['name']} ({s['study']}): {s['leases']} leases on `{s['device']}`", "",
                f"Records: {_records(s['results'])}" + (f"; stages {_cell(s.get('stages'))} on {_cell(s.get('graphs'))}"
                                                if s.get("stages") else "") + ".", "", "```bash"]
        # lease K is one machine for every setting of its kind (the leases rule above), so no line says "fresh"
        out += [f"# lease {c['lease']}\n{env}{c['command']}" for c in s["commands"]]
        out += ["```", ""]
    out += ["## Stopping rule", ""] + [f"- {r}" for r in d["stopping_rule"]] + ["", f"Complete when {d['complete_when']}.", ""]
    out += ["## What will be reported, whichever way it comes out", ""] + [f"- {r}" for r in plan["report"]] + [""]
    out += ["## The claims", "",
            "| claim | study | kind | quantity | claimed | tolerance | rule | sizes | settings (leases) |",
            "|---|---|---|---|---|---|---|---|---|"]
    for c in plan["claims"]:
        rule = c["rule"] + (f" ({c['reason']})" if c.get("reason") else "")
        out.append("| " + " | ".join(_cell(x) for x in (
            c["id"], c["study"], c["kind"], _quantity(c["quantity"]), c.get("claimed"), c.get("tolerance"), rule,
            _sizes(c), f"{', '.join(c['settings']) or '-'} ({c['leases']})")) + " |")
    out += ["", "## The rules", ""] + [f"- `{r}`: {text}" for r, text in (plan.get("rules") or {}).items()] + [""]
    return "\n".join(out)
