/** A hand-written SVG line plot of precision against recall (no plotting dependency); titles and names are escaped. */

export interface Series {
  name: string;
  colour: string;
  points: ReadonlyArray<{ x: number; y: number }>;
}

/** Text as SVG character data. */
function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function precisionRecallSvg(title: string, series: readonly Series[], xLabel: string, yLabel: string): string {
  const width = 640;
  const height = 420;
  const left = 60;
  const top = 40;
  const plotW = width - left - 20;
  const plotH = height - top - 60;
  const px = (x: number) => (left + x * plotW).toFixed(1);
  const py = (y: number) => (top + (1 - y) * plotH).toFixed(1);
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const grid = ticks
    .map(
      (t) =>
        `<line x1="${px(t)}" y1="${py(0)}" x2="${px(t)}" y2="${py(1)}" stroke="#ddd"/><text x="${px(t)}" y="${Number(py(0)) + 16}" text-anchor="middle">${t}</text>` +
        `<line x1="${px(0)}" y1="${py(t)}" x2="${px(1)}" y2="${py(t)}" stroke="#ddd"/><text x="${left - 6}" y="${Number(py(t)) + 4}" text-anchor="end">${t}</text>`,
    )
    .join("\n");
  const lines = series
    .map((s, i) => {
      const path = s.points.map((p) => `${px(p.x)},${py(p.y)}`).join(" ");
      return (
        `<polyline fill="none" stroke="${s.colour}" stroke-width="2" points="${path}"/>` +
        `<rect x="${left + 10}" y="${top + 8 + i * 18}" width="12" height="3" fill="${s.colour}"/><text x="${left + 28}" y="${top + 13 + i * 18}">${escapeXml(s.name)}</text>`
      );
    })
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${width / 2}" y="22" text-anchor="middle" font-size="14">${escapeXml(title)}</text>
${grid}
<text x="${left + plotW / 2}" y="${height - 12}" text-anchor="middle">${escapeXml(xLabel)}</text>
<text transform="translate(16 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>
${lines}
</svg>
`;
}
