// report.html's interactive part: the corpus picker and the Plotly charts drawn from the page's
// data (#gcbench-data, written by report_html.py); report_sort.js sorts the tables.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("gcbench-data").textContent);
  const $ = (id) => document.getElementById(id);
  const plotConfig = { displaylogo: false, responsive: true };
  // Titles left, clear of the mode bar on the right.
  const TITLE = { x: 0, xref: "paper", xanchor: "left", font: { size: 13 } };
  // Nominal link speeds, GB/s per direction: the chart's short tag, the name, the speed.
  const LINKS = [
    ["25G", "25 GbE", 3.125],
    ["NVMe", "NVMe SSD (PCIe 4.0 x4)", 7.88],
    ["100G", "100 GbE", 12.5],
    ["PCIe4", "PCIe 4.0 x16", 31.5],
    ["400G", "400 GbE", 50],
    ["PCIe5", "PCIe 5.0 x16", 63],
    ["NVLink", "NVLink 4 (H100)", 450],
  ];

  function significant(value, digits) {
    if (!(value > 0)) return String(value);
    const decimals = Math.max(0, Math.min(15, digits - 1 - Math.floor(Math.log10(value))));
    const text = value.toFixed(decimals);
    return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  }

  // Ratio versus throughput: one point per codec variant (device, codec and its non-default
  // axes), over one file or the corpus total.
  function variantPoints(corpus, direction, timing, device, file) {
    const groups = new Map();
    for (const c of data.cells) {
      if (c.corpus !== corpus || c.direction !== direction) continue;
      if (device !== "all" && c.device !== device) continue;
      if (file !== "" && c.file !== file) continue;
      const seconds = timing === "kernel" ? c.time_s : c.e2e_s;
      if (!(seconds > 0) || !(c.compressed_bytes > 0)) continue;
      const key = c.device + " " + c.variant;
      if (!groups.has(key)) {
        groups.set(key, {
          codec: c.codec, device: c.device, variant: c.variant, files: new Set(),
          input: 0, compressed: 0, entropy: 0, everyEntropy: true, seconds: 0,
          memory: 0, everyMemory: true,
        });
      }
      const g = groups.get(key);
      g.files.add(c.file);
      g.input += c.input_bytes;
      g.compressed += c.compressed_bytes;
      g.everyEntropy = g.everyEntropy && c.entropy_bytes !== null;
      g.entropy += c.entropy_bytes || 0;
      g.seconds += seconds;
      // A peak per call: the variant's is its largest file's.
      g.everyMemory = g.everyMemory && c.memory_bytes !== null;
      g.memory = Math.max(g.memory, c.memory_bytes || 0);
    }
    const all = Array.from(groups.values());
    const most = Math.max(0, ...all.map((g) => g.files.size));
    const kept = all.filter((g) => g.files.size === most);
    const leftOut = all.filter((g) => g.files.size < most)
      .map((g) => `${g.variant} (${g.device.toUpperCase()}, ${g.files.size} of ${most} files)`);
    const points = kept.map((g) => ({
      ...g,
      gbps: g.input / g.seconds / 1e9,
      ratio: g.input / g.compressed,
      entropyRatio: g.everyEntropy ? g.input / g.entropy : null,
      mib: g.everyMemory ? g.memory / 2 ** 20 : null,
    }));
    return { points, leftOut };
  }

  // The points no other beats on both throughput and `y` (higher better, or lower where
  // `lower`), by throughput.
  function paretoFront(points, y, lower) {
    const better = (a, b) => (lower ? a < b : a > b);
    const sorted = [...points].sort((a, b) => b.gbps - a.gbps || (better(y(a), y(b)) ? -1 : 1));
    const front = [];
    let best = lower ? Infinity : -Infinity;
    for (const p of sorted) {
      if (better(y(p), best)) {
        front.push(p);
        best = y(p);
      }
    }
    return front.reverse();
  }

  function drawRatioChart(corpus) {
    const direction = $("direction").value, timing = $("timing").value;
    const device = $("device").value, file = $("file").value;
    const memory = $("against").value === "memory";
    const found = variantPoints(corpus, direction, timing, device, file);
    const leftOut = found.leftOut;
    const points = memory ? found.points.filter((p) => p.mib !== null) : found.points;
    const unmeasured = found.points.length - points.length;
    const y = memory ? (p) => p.mib : (p) => p.ratio;
    const traces = [];
    const byCodec = new Map();
    for (const p of points) {
      const key = `${p.codec} (${p.device.toUpperCase()})`;
      if (!byCodec.has(key)) byCodec.set(key, []);
      byCodec.get(key).push(p);
    }
    for (const [name, group] of [...byCodec.entries()].sort()) {
      const isDefault = group.map((p) => p.variant === p.codec);
      traces.push({
        type: "scatter", mode: "markers", name,
        x: group.map((p) => p.gbps), y: group.map(y),
        marker: {
          color: data.colors[group[0].codec],
          symbol: group[0].device === "gpu" ? "diamond" : "circle",
          size: isDefault.map((d) => (d ? 13 : 8)),
          line: { color: "#111", width: isDefault.map((d) => (d ? 2 : 0)) },
        },
        text: group.map((p) =>
          `${p.variant} (${p.device.toUpperCase()})${p.variant === p.codec ? ", defaults" : ""}` +
          `<br>${p.files.size} file(s), ${significant(p.input / 1e6, 3)} MB` +
          `<br>${significant(p.gbps, 3)} GB/s, ratio ${p.ratio.toFixed(3)}` +
          (p.entropyRatio ? ` (entropy-coded ${p.entropyRatio.toFixed(3)})` : "") +
          (p.mib !== null ? `<br>memory ${significant(p.mib, 3)} MiB` : "")),
        hoverinfo: "text",
      });
    }
    const front = paretoFront(points, y, memory);
    if (front.length > 1) {
      traces.push({
        type: "scatter", mode: "lines", name: "Pareto front", hoverinfo: "skip",
        x: front.map((p) => p.gbps), y: front.map(y),
        line: { color: "#555", dash: "dot", width: 1.5 },
      });
    }
    const timingName = timing === "kernel" ? "kernel (CPU: wall)" : "end to end";
    const where = file ? `${corpus}/${file}` : corpus;
    Plotly.react($("chart-ratio"), traces, {
      title: { text: `${where}: ${direction}, ${timingName}<br>GPU: ${data.gpu}`, ...TITLE },
      xaxis: {
        type: "log",
        title: `${direction} throughput, ${timingName} [GB/s of original bytes]`,
      },
      yaxis: memory
        ? { type: "log", title: "memory per call, the largest file's [MiB]" }
        : { title: "container ratio (original / compressed)" },
      legend: { x: 1.02, y: 1, xanchor: "left" },
      margin: { t: 60, r: 10 },
      hovermode: "closest",
    }, plotConfig);
    let note = "";
    if (points.length === 0) {
      note = `Nothing measured for ${where} ${direction} with this timing on this device.`;
    } else if (leftOut.length) {
      note = `Left out of the total (measured on fewer files): ${leftOut.join("; ")}.`;
    }
    if (unmeasured > 0) {
      note += `${note ? " " : ""}${unmeasured} variant(s) without a memory figure (results ` +
        "of a gcbench before it recorded memory, or a sanitizer build) left out.";
    }
    $("chart-ratio-note").textContent = note;
  }

  // Effective throughput of moving the data compressed over a link of speed L and decoding it:
  // 1 / (1 / (L * ratio) + 1 / D).
  function effective(link, ratio, decode) {
    return 1 / (1 / (link * ratio) + 1 / decode);
  }

  function linkCodecs(corpus, timing) {
    const headline = data.headline[corpus];
    const out = [];
    for (const r of headline ? headline.rows : []) {
      const d = r.decompress;
      const rate = timing === "kernel" && r.device === "gpu" ? d.kernel_gbps : d.e2e_gbps;
      if (rate && r.ratio) {
        const name = `${r.codec} (${r.device.toUpperCase()})`;
        out.push({ name, codec: r.codec, device: r.device, ratio: r.ratio, rate });
      }
    }
    return { codecs: out, bytes: headline ? totalBytes(corpus, headline.files) : 0 };
  }

  function totalBytes(corpus, files) {
    const wanted = new Set(files);
    const seen = new Map();
    for (const c of data.cells) {
      if (c.corpus === corpus && wanted.has(c.file)) seen.set(c.file, c.input_bytes);
    }
    return [...seen.values()].reduce((a, b) => a + b, 0);
  }

  function drawLinkChart(corpus) {
    const timing = $("link-timing").value;
    const { codecs, bytes } = linkCodecs(corpus, timing);
    const speeds = Array.from({ length: 121 }, (_, i) => Math.pow(10, -1 + i / 30));
    const megabytes = significant(bytes / 1e6, 3);
    const seconds = (rate) =>
      bytes > 0 ? `, ${significant(bytes / rate / 1e9, 3)} s for the ${megabytes} MB` : "";
    const traces = [{
      type: "scatter", mode: "lines", name: "raw (no compression)", x: speeds, y: speeds,
      line: { color: "#000", dash: "dash", width: 1.5 },
      text: speeds.map((s) => `raw: ${significant(s, 3)} GB/s${seconds(s)}`), hoverinfo: "text",
    }];
    for (const c of codecs) {
      const y = speeds.map((s) => effective(s, c.ratio, c.rate));
      traces.push({
        type: "scatter", mode: "lines", name: c.name, x: speeds, y,
        line: { color: data.colors[c.codec], width: 2, dash: c.device === "gpu" ? "solid" : "dot" },
        text: speeds.map((s, i) =>
          `${c.name} over ${significant(s, 3)} GB/s: ${significant(y[i], 3)} GB/s${seconds(y[i])}`),
        hoverinfo: "text",
      });
    }
    const marks = [...LINKS];
    if (data.ceilings.h2d_pinned_gbps) {
      marks.push(["H2D", "this run's pinned host-to-device copy", data.ceilings.h2d_pinned_gbps]);
    }
    marks.sort((a, b) => a[2] - b[2]);
    const shapes = marks.map(([, , x]) => ({
      type: "line", xref: "x", yref: "paper", x0: x, x1: x, y0: 0, y1: 1,
      line: { color: "#999", width: 1, dash: "dot" },
    }));
    // Tags of close links on staggered rows, so that none covers another.
    let previous = -Infinity, level = 0;
    const annotations = marks.map(([tag, , x]) => {
      level = Math.log10(x) - previous < 0.25 ? level + 1 : 0;
      previous = Math.log10(x);
      return {
        x: Math.log10(x), xref: "x", yref: "paper", y: 1 - 0.06 * level, yanchor: "top",
        text: tag, showarrow: false, font: { size: 10, color: "#444" },
        bgcolor: "rgba(255,255,255,0.85)",
      };
    });
    const rateName = timing === "kernel" ? "kernel" : "end-to-end";
    Plotly.react($("chart-link"), traces, {
      title: {
        text: `${corpus}: decompress after a link, ${rateName} rate<br>GPU: ${data.gpu}`,
        ...TITLE,
      },
      xaxis: { type: "log", dtick: 1, title: "link speed L [GB/s]" },
      yaxis: { type: "log", dtick: 1, title: "effective throughput [GB/s of original bytes]" },
      legend: { x: 1.02, y: 1, xanchor: "left" },
      margin: { t: 60, r: 10 },
      shapes, annotations, hovermode: "closest",
    }, plotConfig);
    linkTable(codecs, marks);
  }

  // The same at the named links, as a table: a row per codec, the effective GB/s at each link
  // (green where it beats moving the data raw; hover for the gain).
  function linkTable(codecs, marks) {
    const box = $("link-table");
    box.textContent = "";
    if (codecs.length === 0) return;
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement("th")).textContent = "effective GB/s at";
    for (const [tag, name, gbps] of marks) {
      const th = head.appendChild(document.createElement("th"));
      th.textContent = `${tag} ${significant(gbps, 3)}`;
      th.title = name;
    }
    const body = table.createTBody();
    for (const c of codecs) {
      const row = body.insertRow();
      row.insertCell().textContent = c.name;
      for (const [, name, gbps] of marks) {
        const e = effective(gbps, c.ratio, c.rate);
        const td = row.insertCell();
        td.className = "num" + (e > gbps ? " gain" : "");
        td.textContent = significant(e, 3);
        td.title = `${c.name} over ${name}: ${significant(e / gbps, 3)}× moving it raw`;
      }
    }
    box.appendChild(table);
  }

  function fillFiles(corpus) {
    const files = [...new Set(data.cells.filter((c) => c.corpus === corpus).map((c) => c.file))];
    files.sort();
    const select = $("file");
    select.textContent = "";
    for (const [value, text] of [["", "all files (total)"], ...files.map((f) => [f, f])]) {
      select.add(new Option(text, value));
    }
  }

  function showCorpus() {
    const corpus = $("corpus").value;
    for (const part of document.querySelectorAll(".corpus-part")) {
      part.hidden = part.dataset.corpus !== corpus;
    }
    for (const span of document.querySelectorAll(".corpus-name")) span.textContent = corpus;
    fillFiles(corpus);
    drawRatioChart(corpus);
    drawLinkChart(corpus);
  }

  $("corpus").addEventListener("change", showCorpus);
  for (const id of ["direction", "timing", "device", "against", "file"]) {
    $(id).addEventListener("change", () => drawRatioChart($("corpus").value));
  }
  $("link-timing").addEventListener("change", () => drawLinkChart($("corpus").value));
  showCorpus();
})();
