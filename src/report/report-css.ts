export const REPORT_CSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d2330; background: #f6f7f9; margin: 0; }
header, main { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 22px; margin: 0 0 12px; }
h2 { font-size: 17px; margin: 0 0 4px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
dt { color: #5b6475; }
dd { margin: 0; }
nav { margin: 8px 0 16px; font-size: 13px; }
nav a { color: #2458b3; text-decoration: none; }
.legend, .about { color: #5b6475; margin: 0 0 10px; }
.query code { background: #eef1f6; padding: 0 4px; border-radius: 3px; }
section { background: white; border: 1px solid #dfe3ea; border-radius: 6px; padding: 16px 20px; margin: 0 0 16px; overflow-x: auto; }
.findings { border-left: 4px solid #c9861a; }
.findings ul { margin: 6px 0 0; padding-left: 20px; }
table { border-collapse: collapse; font-size: 12.5px; margin: 4px 0; }
th, td { border-bottom: 1px solid #e6e9ef; padding: 3px 8px; vertical-align: top; }
th { text-align: left; background: #f1f3f7; font-weight: 600; white-space: nowrap; }
td.txt { max-width: 420px; overflow-wrap: break-word; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.notes { color: #3b4352; margin: 8px 0 0; padding-left: 20px; }
.empty { color: #5b6475; font-style: italic; }
figure.chart { margin: 14px 0 0; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
figcaption { color: #5b6475; font-size: 12px; margin-top: 4px; }
`;
