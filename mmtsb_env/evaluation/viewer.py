"""A self-contained HTML trajectory viewer: one file, no external resources.

For every episode: the messages (images inline), tool calls and results, the world diff against
the expected changes (with pair scores), and the judge and user-judge verdicts. Images of a run
folder are referenced from its ``images/`` folder (each stored once, loaded lazily as episodes are
opened and scrolled to); episodes that carry base64 images get data URLs instead. Episodes
are kept in inert templates and shown a page (``PAGE_SIZE``) at a time, so a run of thousands of
episodes opens at once; a small inline script pages, filters episodes by outcome and follows
``#ep-N`` links to the right page; a ``window.onerror`` hook placed first records
script errors into ``#js-errors`` so a headless browser test can see them.
"""

from __future__ import annotations

import html
import json
from typing import Any, Mapping, Sequence

from .evidence import image_data_url
from .legend import LEGEND
from .llm_judge import _changed

MAX_TEXT = 4000

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2329}
header{background:#22313f;color:#fff;padding:14px 22px}header h1{margin:0 0 6px;font-size:20px}
.kpis span{display:inline-block;margin-right:18px;font-size:13px}.kpis b{font-size:16px}
main{padding:14px 22px;max-width:1200px}
.filters button{margin-right:6px;padding:4px 10px;border:1px solid #99a;border-radius:4px;background:#fff;cursor:pointer}
.filters button.active{background:#22313f;color:#fff}
table{border-collapse:collapse;margin:6px 0 12px;background:#fff}td,th{border:1px solid #d5d9de;padding:3px 7px;text-align:left;vertical-align:top;font-size:13px}
th{background:#eceff2}
.episode{background:#fff;border:1px solid #d5d9de;border-radius:6px;margin:12px 0;padding:4px 12px}
.episode>summary{cursor:pointer;font-weight:600;padding:6px 0}
.tag{display:inline-block;border-radius:3px;padding:0 6px;font-size:12px;font-weight:600;margin-left:6px}
.pass{background:#d8f0dc;color:#1c6b2a}.fail{background:#f8dcdc;color:#8a1f1f}.error{background:#fde9c8;color:#7a4a00}
.msg{border-left:4px solid #ccc;margin:6px 0;padding:4px 10px;background:#fafbfc;white-space:pre-wrap;word-break:break-word}
.msg.user{border-color:#3b6ea8}.msg.assistant{border-color:#2e9d57}.msg.environment{border-color:#999}.msg.bad{border-color:#c0392b;background:#fff5f5}
.who{font-size:12px;color:#555;font-weight:600}
pre{background:#f1f3f5;padding:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-word;font-size:12px;margin:4px 0}
img.inline{max-width:360px;max-height:360px;border:1px solid #ccc;margin:4px 6px 0 0;display:inline-block}
.gallery figure{display:inline-block;margin:4px 8px 4px 0}.gallery figcaption{font-size:12px;color:#555}
#js-errors{color:#8a1f1f}
"""

_GUARD = """window.__errors=[];window.onerror=function(m,s,l,c){window.__errors.push(String(m)+' @'+l+':'+c);
var e=document.getElementById('js-errors');if(e){var li=document.createElement('li');li.textContent=String(m);e.appendChild(li);}
document.documentElement.setAttribute('data-js-errors',String(window.__errors.length));};"""

PAGE_SIZE = 25

# Episodes live in inert <template>s (not laid out, their images not fetched); the script clones the
# current page's episodes into #episodes. A link to #ep-N opens the page holding episode N.
_SCRIPT = """(function(){
var PAGE=%d;var tpls=Array.prototype.slice.call(document.querySelectorAll('template.episode-tpl'));
var box=document.getElementById('episodes');var status=document.getElementById('status');var pageLabel=document.getElementById('page');
var which='all',page=0,shown=tpls;
function matches(t){return which==='all'||t.getAttribute('data-status')===which;}
function pages(){return Math.max(1,Math.ceil(shown.length/PAGE));}
function draw(){box.textContent='';shown.slice(page*PAGE,(page+1)*PAGE).forEach(function(t){
var ep=t.content.firstElementChild.cloneNode(true);ep.id='ep-'+t.getAttribute('data-index');box.appendChild(ep);});
status.textContent=shown.length+' of '+tpls.length+' episode(s) shown';pageLabel.textContent='page '+(page+1)+' of '+pages();
document.getElementById('prev').disabled=page===0;document.getElementById('next').disabled=page>=pages()-1;
document.getElementById('image-count').textContent=String(box.querySelectorAll('img').length);}
function filter(w){which=w;shown=tpls.filter(matches);page=0;
document.querySelectorAll('tr.idx').forEach(function(r){r.hidden=!matches(r);});
document.querySelectorAll('.filters button[data-filter]').forEach(function(b){b.classList.toggle('active',b.getAttribute('data-filter')===which);});draw();}
function jump(){var m=/^#ep-(\\d+)$/.exec(location.hash);if(!m){return false;}
var k=shown.findIndex(function(t){return t.getAttribute('data-index')===m[1];});
if(k<0){filter('all');k=shown.findIndex(function(t){return t.getAttribute('data-index')===m[1];});}
if(k<0){return false;}page=Math.floor(k/PAGE);draw();var ep=document.getElementById('ep-'+m[1]);ep.open=true;ep.scrollIntoView();return true;}
document.querySelectorAll('.filters button[data-filter]').forEach(function(b){b.addEventListener('click',function(){filter(b.getAttribute('data-filter'));});});
document.getElementById('prev').addEventListener('click',function(){if(page>0){page--;draw();}});
document.getElementById('next').addEventListener('click',function(){if(page<pages()-1){page++;draw();}});
window.addEventListener('hashchange',jump);
filter('all');jump();document.body.setAttribute('data-js','ok');
})();""" % PAGE_SIZE


def _e(text: Any) -> str:
    return html.escape(str(text if text is not None else ""), quote=True)


def _clip(text: Any, limit: int = MAX_TEXT) -> str:
    s = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, indent=1, default=str)
    return s if len(s) <= limit else s[:limit] + f"\n… ({len(s) - limit} more characters)"


def _status(ep: Mapping[str, Any]) -> str:
    if ep.get("error"):
        return "error"
    return "pass" if ep.get("passed") else "fail"


def _tag(status: str, text: str | None = None) -> str:
    return f'<span class="tag {status}">{_e(text or status)}</span>'


def _img(url: str | None, image_id: int, cls: str = "inline") -> str:
    if url is None:
        return f'<em>[image {image_id} not recorded]</em>'
    return f'<img class="{cls}" src="{url}" alt="image {image_id}" title="image {image_id}" loading="lazy">'


def _verdict_table(verdict: Mapping[str, Any] | None, title: str) -> str:
    if not verdict:
        return f"<p><b>{_e(title)}:</b> none</p>"
    rows = "".join(
        f"<tr><td>{_e(c.get('criterion'))}</td><td>{_tag('pass' if c.get('pass') else 'fail')}</td>"
        f"<td>{_e(c.get('reason', ''))}</td></tr>" for c in verdict.get("criteria", []))
    judge = verdict.get("judge", "")
    return (f"<h4>{_e(title)} {_tag('pass' if verdict.get('pass') else 'fail')} <small>{_e(judge)}</small></h4>"
            f"<table><tr><th>criterion</th><th>result</th><th>reason</th></tr>{rows}</table>")


def _messages(ep: Mapping[str, Any], urls: dict[int, str | None]) -> str:
    out = []
    for e in ep.get("log", []):
        sender, kind = e.get("sender", ""), e.get("kind", "")
        bad = "" if e.get("ok", True) and kind != "error" else " bad"
        rnd = e.get("round_index")
        head = f"{sender} → {e.get('recipient', '')} · {kind}" + (f" · round {rnd + 1}" if isinstance(rnd, int) else "")
        if kind == "tool_calls":
            body = "".join(f"<pre>{_e(c.get('name'))}({_e(_clip(c.get('arguments'), 2000))})</pre>" for c in e.get("tool_calls", []))
            if e.get("content"):
                body = f"<div>{_e(e['content'])}</div>" + body
        elif kind in ("tool_result", "code", "code_result"):
            label = f"<div class='who'>{_e(e.get('tool_name', ''))}</div>" if e.get("tool_name") else ""
            body = f"{label}<pre>{_e(_clip(e.get('content', '')))}</pre>"
        else:
            body = f"<div>{_e(_clip(e.get('content', '')))}</div>"
        imgs = "".join(_img(urls.get(i), i) for i in e.get("image_ids", []))
        out.append(f'<div class="msg {_e(sender)}{bad}"><div class="who">{_e(head)}</div>{body}{imgs}</div>')
    return "".join(out) or "<p>(no messages)</p>"


def _diff_section(ep: Mapping[str, Any]) -> str:
    entity = ep.get("entity") or {}
    expected = ep.get("expected_changes") or []
    paired: dict[int, tuple[float, Any, dict]] = {}
    matched_keys: set[tuple[str, str, str]] = set()
    for g in entity.get("groups", []):
        idx, keys = g.get("expected_index", []), g.get("actual_keys", [])
        details = {(d["expected"], d["actual"]): d for d in g.get("details", [])}
        for i, j, s in g.get("pairs", []):
            key = keys[j] if j < len(keys) else None
            if i < len(idx):
                paired[idx[i]] = (s, key, details.get((i, j), {}))
            matched_keys.add((g["table"], g["operation"], json.dumps(key, default=str)))
    rows = []
    for pos, c in enumerate(expected):
        what = c.get("row") if c.get("operation") == "create" else (c.get("fields") or {"key": c.get("key")})
        if pos in paired:
            s, key, d = paired[pos]
            cols = ", ".join(f"{k}: {v[0]:.2f} ({v[1]})" for k, v in d.get("columns", {}).items())
            extra = f"; also changed {', '.join(d.get('extra_columns', []))}" if d.get("extra_columns") else ""
            status = _tag("pass" if s >= 0.999 else "fail", f"matched {s:.2f}") + f" row {_e(key)} <small>{_e(cols + extra)}</small>"
        else:
            status = _tag("fail", "missing")
        rows.append(f"<tr><td>{_e(c.get('operation'))}</td><td>{_e(c.get('table'))}</td>"
                    f"<td><pre>{_e(_clip(what, 1500))}</pre></td><td>{status}</td></tr>")
    exp_table = ("<table><tr><th>op</th><th>table</th><th>expected</th><th>outcome</th></tr>" + "".join(rows) + "</table>"
                 if rows else "<p>No changes expected.</p>")
    act = []
    from .entity_diff import _key_column  # local: keeps the viewer importable without the world schema first

    for table, d in sorted((ep.get("diff") or {}).items()):
        kc = _key_column(table)
        for op, items in (("create", d.get("created", [])), ("update", d.get("updated", [])), ("delete", d.get("deleted", []))):
            for item in items:
                row = item["after"] if op == "update" else item
                key = row.get(kc)
                if op == "update":
                    shown = "\n".join(f"{c}: {json.dumps(b, ensure_ascii=False, default=str)} → "
                                      f"{json.dumps(a, ensure_ascii=False, default=str)}"
                                      for c, (b, a) in _changed(item["before"], item["after"]).items())
                else:
                    shown = row
                ok = (table, op, json.dumps(key, default=str)) in matched_keys
                act.append(f"<tr><td>{op}</td><td>{_e(table)}</td><td>{_e(key)}</td><td><pre>{_e(_clip(shown, 1500))}</pre></td>"
                           f"<td>{_tag('pass', 'expected') if ok else _tag('fail', 'unexpected')}</td></tr>")
    exempt = entity.get("exempted") or []
    act_table = ("<table><tr><th>op</th><th>table</th><th>key</th><th>row / before → after</th><th></th></tr>" + "".join(act) + "</table>"
                 if act else "<p>The world was not changed.</p>")
    note = f"<p><small>Exempt bookkeeping: {_e(', '.join(exempt))}</small></p>" if exempt else ""
    kpi = (f"<p>Entity diff: precision {entity.get('precision', 0):.3f}, recall {entity.get('recall', 0):.3f}, "
           f"F1 <b>{entity.get('f1', 0):.3f}</b></p>") if entity else ""
    return f"{kpi}<h4>Expected changes</h4>{exp_table}<h4>Actual changes</h4>{act_table}{note}"


def _episode(i: int, ep: Mapping[str, Any], summary: Mapping[str, Any] | None) -> str:
    files = list(ep.get("image_files") or [])  # run folders: images/<digest>.png, each image stored once
    n_images = max(len(ep.get("images") or []), len(ep.get("image_sources") or []), len(files))
    urls = {k: files[k] if k < len(files) else image_data_url(ep, k) for k in range(n_images)}
    status = _status(ep)
    head = (f"#{i + 1} {_e(ep.get('scenario_id'))} {_tag(status)} "
            f"<small>F1 {float(ep.get('entity_f1') or 0):.2f} · {int(ep.get('steps') or 0)} steps ({int(ep.get('assistant_steps') or 0)} by the assistant) · seed {_e(ep.get('seed'))}"
            f" · {_e(ep.get('agent', ''))} · {_e(ep.get('mode', ''))}</small>")
    error = f"<p class='error'><b>Errored:</b> {_e(ep['error'])}</p>" if ep.get("error") else ""
    facts = ""
    if summary:
        ref = summary.get("reference_tools") or []
        rec = tuple("—" if x is None else f"{x:.2f}" for x in (summary.get("surfaced_recall"), summary.get("invoked_recall")))
        fail = f" · failure class: <b>{_e(summary['failure'])}</b>" if summary.get("failure") else ""
        facts = (f"<p><small>reference tools: {_e(', '.join(ref) or '—')} · surfaced recall {_e(rec[0])} · "
                 f"invoked recall {_e(rec[1])} · tool calls {summary.get('tool_calls')} ({summary.get('failed_calls')} failed)"
                 f"{fail}</small></p>")
    inline = {i for e in ep.get("log", []) for i in e.get("image_ids", [])}
    sources = list(ep.get("image_sources") or [])
    gallery = "".join(f"<figure>{_img(urls[k], k, 'inline')}<figcaption>image {k} · {_e(sources[k] if k < len(sources) else '')}"
                      f"</figcaption></figure>" for k in range(n_images) if k not in inline)
    shown = ", ".join(str(k) for k in range(n_images) if k in inline)
    if shown:
        gallery += f"<p><small>Image(s) {shown} are shown in the messages above.</small></p>"
    return (f'<template class="episode-tpl" data-index="{i}" data-status="{status}">'
            f'<details class="episode"{" open" if i == 0 else ""}><summary>{head}</summary>{error}{facts}'
            f"{_verdict_table(ep.get('verdict'), 'Judge verdict')}{_verdict_table(ep.get('user_verdict'), 'User judge')}"
            f"<h4>World diff against expected</h4>{_diff_section(ep)}"
            f"<h4>Messages and tool calls</h4>{_messages(ep, urls)}"
            f"<h4>Images</h4><div class='gallery'>{gallery or '<p>(none)</p>'}</div></details></template>")


def render_viewer(results: Mapping[str, Any], summaries: Sequence[Mapping[str, Any]] | None = None,
                  metrics: Mapping[str, Any] | None = None, title: str = "mmtsb trajectories") -> str:
    """The viewer page for a ``results.json`` payload (``{"config", "summary", "episodes"}``)."""
    episodes = list(results.get("episodes", []))
    m = metrics or results.get("metrics") or {}
    cfg = results.get("config") or {}
    kpis = [("episodes", "episodes", len(episodes)), ("Agent SR", "agent_sr", m.get("agent_sr")),
            ("mean F1", "mean_entity_f1", m.get("mean_entity_f1")), ("avg steps", "avg_steps", m.get("avg_steps")),
            ("avg assistant steps", "avg_assistant_steps", m.get("avg_assistant_steps")), ("User SR", "user_sr", m.get("user_sr")),
            ("errored", "errored", (m.get("errored") or {}).get("count") if isinstance(m.get("errored"), Mapping) else m.get("errored"))]
    kpi_html = "".join(f"<span title='{_e(LEGEND[key])}'>{_e(k)}: <b>{_e('—' if v is None else (f'{v:.3f}' if isinstance(v, float) else v))}</b></span>"
                       for k, key, v in kpis)
    kpi_html += ("<details class='legend'><summary>what these mean</summary><ul>"
                 + "".join(f"<li>{_e(LEGEND[key])}</li>" for _, key, _ in kpis) + "</ul></details>")
    index = "".join(
        f"<tr class='idx' data-status='{_status(ep)}'><td><a href='#ep-{i}'>{i + 1}</a></td><td>{_e(ep.get('scenario_id'))}</td><td>{_tag(_status(ep))}</td>"
        f"<td>{float(ep.get('entity_f1') or 0):.2f}</td><td>{int(ep.get('steps') or 0)}</td>"
        f"<td>{_e((summaries[i].get('failure') if summaries else '') or '')}</td></tr>" for i, ep in enumerate(episodes))
    body = "".join(_episode(i, ep, summaries[i] if summaries else None) for i, ep in enumerate(episodes))
    subtitle = " · ".join(f"{k}={v}" for k, v in cfg.items() if v is not None and not isinstance(v, (dict, list)))
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{_e(title)}</title>"
        f"<script>{_GUARD}</script><style>{_CSS}</style></head><body data-js='pending'>"
        f"<header><h1>{_e(title)}</h1><div>{_e(subtitle)}</div><div class='kpis'>{kpi_html}</div></header><main>"
        "<div class='filters'><button data-filter='all'>All</button><button data-filter='pass'>Passed</button>"
        "<button data-filter='fail'>Failed</button><button data-filter='error'>Errored</button> "
        "<span id='status'>(script not run)</span> · images on this page: <span id='image-count'>?</span> "
        "<button id='prev'>‹ previous</button> <span id='page'></span> <button id='next'>next ›</button></div>"
        "<ul id='js-errors'></ul>"
        f"<table><tr><th>#</th><th>scenario</th><th>outcome</th><th>F1</th><th>steps (both seats)</th><th>failure class</th></tr>{index}</table>"
        f"{body}<div id='episodes'></div></main><script>{_SCRIPT}</script></body></html>"
    )
