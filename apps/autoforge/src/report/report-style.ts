/** The report's stylesheet (inline; system fonts only, so nothing is fetched). */
export const REPORT_STYLE = `
:root { color-scheme: light; --ink: #1f2933; --muted: #616e7c; --line: #e4e7eb; --bg: #f5f7fa; --card: #ffffff;
  --ok: #0b7a4b; --bad: #b42318; --blue: #0072b2; --accent: #a23b7d; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1320px; margin: 0 auto; padding: 20px 24px 60px; }
h1 { font-size: 24px; margin: 4px 0 6px; }
h2 { font-size: 18px; margin: 0; display: inline; }
h3 { font-size: 15px; margin: 0 0 6px; word-break: break-all; }
a { color: var(--blue); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
pre { white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
nav.toc { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 8px 0 16px; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; margin: 14px 0; padding: 0; }
section.card > details > summary { cursor: pointer; padding: 12px 16px; list-style-position: inside; }
section.card > details > .content { padding: 0 16px 16px; }
.note-missing { color: var(--muted); font-style: italic; }
.muted { color: var(--muted); }
.stats { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; margin: 6px 0 10px; }
.stat { border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; background: #fbfcfd; }
.stat .value { font-size: 20px; font-weight: 600; }
.stat .label { color: var(--muted); font-size: 12px; }
.charts { display: flex; flex-wrap: wrap; gap: 14px; }
.charts svg.chart { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
.figure-img { max-width: 100%; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.diagram-wrap { overflow: auto; max-height: 80vh; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
.diagram-wrap svg { display: block; }
.key { display: flex; flex-wrap: wrap; gap: 4px 16px; margin: 6px 0 10px; font-size: 12px; color: var(--muted); }
.key .swatch { display: inline-block; width: 14px; height: 12px; border-radius: 3px; border: 1.5px solid; vertical-align: -2px; margin-right: 4px; }
svg.diagram g.edge:hover .edge-path, svg.diagram g.edge.lit .edge-path { stroke: #d55e00; stroke-width: 2.2; }
svg.diagram.focus g.edge:not(.lit) { opacity: 0.18; }
svg.diagram g.node { cursor: default; }
svg.diagram g.node.lit .node-shape { stroke-width: 3; }
.blueprint { margin: 12px 0 18px; }
.blueprint h3 { margin-bottom: 2px; }
table.data { border-collapse: collapse; font-size: 12px; margin: 8px 0; }
table.data th, table.data td { border: 1px solid var(--line); padding: 3px 8px; text-align: right; }
table.data th:first-child, table.data td:first-child { text-align: left; }
.viewer-controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 4px 0 10px; }
.viewer-body { display: grid; grid-template-columns: minmax(220px, 300px) 1fr; gap: 14px; align-items: start; }
.traj-list { list-style: none; margin: 0; padding: 0; position: sticky; top: 8px; max-height: calc(100vh - 16px); overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
.traj-list li[hidden] { display: none; }
.traj-item { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--line); background: #fff; padding: 6px 8px; cursor: pointer; font: inherit; }
.traj-item:hover { background: #eef4fb; }
.traj-item.active { background: #dcebf7; }
.traj-name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 11.5px; word-break: break-all; }
.traj-sub { display: block; color: var(--muted); font-size: 11.5px; padding-left: 14px; }
.dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; margin-right: 6px; }
.dot-success { background: var(--ok); }
.dot-failure { background: var(--bad); }
article.traj { display: none; border: 1px solid var(--line); border-radius: 6px; padding: 12px; background: #fff; min-width: 0; }
article.traj.active { display: block; }
.traj-meta { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.tag { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 11.5px; background: #eef1f4; color: var(--ink); }
.tag-ok { background: #dcf3e7; color: var(--ok); }
.tag-error { background: #fde4e1; color: var(--bad); }
.tag-call { background: #e3f0fb; color: var(--blue); }
.tag-injected { background: #fff1d6; color: #8a5300; }
.tag-evidence { background: #f7e6f1; color: var(--accent); }
.intent { margin: 10px 0 6px; padding: 8px 10px; border-left: 3px solid var(--blue); background: #f3f8fc; }
.gold summary { cursor: pointer; color: var(--muted); font-size: 12px; }
.injected-list, .verdict { margin: 8px 0; padding: 8px 10px; border-radius: 6px; font-size: 13px; }
.injected-list { background: #fff8e8; border: 1px solid #f3d58a; }
.injected-list ul, .evidence-list { margin: 4px 0 0; padding-left: 20px; }
.verdict-user-error { background: #fdf0ee; border: 1px solid #f2b8b0; }
.verdict-clean { background: #eef8f2; border: 1px solid #b7e1c9; }
.verdict-none { color: var(--muted); border: 1px dashed var(--line); }
.dialogue { display: flex; flex-direction: column; gap: 8px; margin-top: 12px; }
.msg { max-width: 86%; }
.msg .who { font-size: 11px; color: var(--muted); margin-bottom: 2px; }
.msg-index { color: var(--muted); text-decoration: none; font-family: ui-monospace, monospace; }
.bubble { white-space: pre-wrap; word-break: break-word; padding: 8px 12px; border-radius: 14px; }
.msg-user { align-self: flex-start; }
.msg-user .bubble { background: #eef1f4; border-top-left-radius: 4px; }
.msg-assistant { align-self: flex-end; }
.msg-assistant .who { text-align: right; }
.msg-assistant .bubble { background: #0072b2; color: #fff; border-top-right-radius: 4px; }
.msg-system, .msg-other { align-self: stretch; max-width: 100%; color: var(--muted); }
.tool-call-head .muted, .msg-tool .who .muted { font-size: 11px; }
.tool-call { border: 1px solid #b9d7ee; background: #f3f8fc; border-radius: 8px; padding: 6px 10px; margin-top: 4px; }
.msg-tool { align-self: flex-end; width: 80%; border: 1px solid var(--line); border-left: 4px solid var(--ok); border-radius: 6px; padding: 6px 10px; background: #fbfcfd; }
.msg-tool pre.result { max-height: 260px; overflow: auto; }
.msg-user-tool { align-self: flex-start; width: 80%; border: 1px dashed var(--line); border-left: 4px solid var(--accent, #6b7ba8); border-radius: 6px; padding: 6px 10px; background: #fbfbfe; }
.msg-user-tool pre.result { max-height: 200px; overflow: auto; }
.msg-tool.tool-error { border-left-color: var(--bad); background: #fdf3f1; }
.msg.evidence > .bubble, .msg.evidence.msg-tool { outline: 3px solid var(--accent); outline-offset: 2px; }
.msg.injected > .bubble { box-shadow: 0 0 0 3px #f0b429; }
.note { font-size: 12px; margin-top: 4px; }
.msg:target { scroll-margin-top: 40px; }
.msg:target > .bubble, .msg-tool:target { outline: 3px dashed var(--blue); }
footer { margin-top: 10px; font-size: 12px; }
@media (max-width: 820px) { .viewer-body { grid-template-columns: 1fr; } .msg { max-width: 100%; } }
`;
