"""The report's header: what was run, with what, where and when (``results.json``'s provenance), and the
pass@1 / pass@K table of a run with several trials."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from droidpilot.bench.percent import percent


def _pct(v: Any) -> str:
    return "-" if v is None else percent(float(v))


def _value(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, dict | list):
        return json.dumps(v, ensure_ascii=False, sort_keys=True)
    return str(v)


def provenance(document: dict[str, Any]) -> str:
    """A table of the run's provenance; every value escaped (names and URLs are the user's input)."""
    dp = document.get("droidpilot") or {}
    suite = document.get("suite_info") or {}
    rev = dp.get("revision") or "not a git checkout"
    if dp.get("dirty"):
        rev += " (with uncommitted changes)"
    machine = document.get("machine") or {}
    items = [
        ("brain", document.get("brain")),
        ("model", document.get("model")),
        ("endpoint host", document.get("endpoint_host")),
        ("suite", f"{suite.get('name', document.get('suite', '?'))} version {suite.get('version', '?')}, "
                  f"{suite.get('tasks', '?')} tasks, sha256 {suite.get('sha256', '?')}"),
        ("droidpilot", f"{dp.get('version', '?')}, revision {rev}"),
        ("date (UTC)", document.get("date")),
        ("machine", ", ".join(f"{k} {v}" for k, v in machine.items()) if machine else None),
        ("devices", document.get("devices_used") or document.get("device")),
    ]
    settings = document.get("settings") or {}
    rows = "".join(f"<tr><th>{escape(k)}</th><td>{escape(_value(v))}</td></tr>" for k, v in items)
    setting_rows = "".join(f"<tr><th>{escape(str(k))}</th><td><code>{escape(_value(v))}</code></td></tr>"
                           for k, v in settings.items())
    seeds = document.get("seeds") or {}
    distinct = sorted({str(v) for v in seeds.values()})
    seed_text = (f"{len(seeds)} tasks, seed {distinct[0]}" if len(distinct) == 1 else
                 ", ".join(f"{k}={v}" for k, v in seeds.items())) if seeds else "-"
    return (f'<table class="prov" id="provenance">{rows}<tr><th>SimPhone seeds</th>'
            f'<td>{escape(seed_text)}</td></tr></table>'
            + (f'<details class="settings"><summary>every setting ({len(settings)})</summary>'
               f'<table class="prov">{setting_rows}</table></details>' if settings else ""))


def trials_table(trials: dict[str, Any] | None) -> str:
    """pass@1, pass@K, Su per trial and its spread, per level and overall ("" for a single trial)."""
    if not trials:
        return ""
    k = trials["overall"]["k"]
    head = (f"<tr><th>group</th><th>tasks</th><th>pass@1</th><th>pass@{k}</th><th>Su per trial</th>"
            f"<th>min</th><th>max</th><th>std</th></tr>")
    rows = []
    groups = [(f"level {lv}", t) for lv, t in (trials.get("by_level") or {}).items() if t]
    for name, t in [*groups, ("overall", trials["overall"])]:
        per = " ".join(_pct(v) for v in t["su_per_trial"])
        sp = t["spread"]
        rows.append(f"<tr><td>{escape(name)}</td><td>{t['tasks']}</td><td>{_pct(t['pass@1'])}</td>"
                    f"<td>{_pct(t['pass@k'])}</td><td>{escape(per)}</td><td>{_pct(sp['min'])}</td>"
                    f"<td>{_pct(sp['max'])}</td><td>{sp['std'] * 100:.1f} pts</td></tr>")
    return (f'<h2>{k} trials per task</h2><table class="summary" id="trials">{head}{"".join(rows)}</table>')
