"use strict";
// The dashboard of spindle serve: views rendered from the JSON API of
// /api/v1, kept live by one long poll of /api/v1/updates at a time.
(() => {
  const store = window.localStorage;
  let language = store.getItem("spindle.language") || (navigator.language.startsWith("de") ? "de" : "en");
  let theme = store.getItem("spindle.theme") ||
      (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
  let version = 0;
  let route = { view: "jobs" };
  let view = null;  // what the current page refreshes on each update
  let draft = "";   // the spec being written, kept across pages and languages
  let user = "";    // whom the server acts for

  const text = (key, ...values) => {
    const words = window.spindleWords[language] || window.spindleWords.en;
    const phrase = words[key] || window.spindleWords.en[key] || key;
    return phrase.replace(/\{(\d)\}/g, (_, i) => String(values[Number(i)]));
  };

  // Builds an element; children are elements or strings (never HTML).
  const el = (tag, attributes = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  };

  const api = async (path, options = {}) => {
    const init = { credentials: "same-origin", headers: {} };
    if (options.body !== undefined) {
      init.method = "POST";
      init.body = options.body;
      init.headers["X-Spindle-Request"] = "1";
      init.headers["Content-Type"] = options.json ? "application/json" : "text/plain; charset=utf-8";
    } else if (options.post) {
      init.method = "POST";
      init.headers["X-Spindle-Request"] = "1";
    }
    const response = await fetch("/api/v1/" + path, init);
    const body = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok && !options.accept?.includes(response.status)) {
      const error = new Error(body.error || response.statusText);
      error.status = response.status;
      error.body = body;
      throw error;
    }
    return body;
  };

  const say = (message, isError = false) => {
    const status = document.getElementById("status");
    status.textContent = message;
    status.className = isError ? "error" : "muted";
  };

  const time = (ms) => (ms ? new Date(ms).toLocaleString(language) : "");
  const state = (value) => el("span", { class: "state state-" + value }, value || "");
  const mib = (bytes) => (bytes ? (bytes / 1048576).toFixed(0) : "");

  const table = (columns, rows, attributes = {}) =>
    el("table", attributes,
       el("thead", {}, el("tr", {}, columns.map((key) => el("th", { scope: "col" }, text(key))))),
       el("tbody", {}, rows));

  // Redraws `container` with `draw`, keeping the keyboard focus on the same link or control if it was
  // inside: a live update must not throw a keyboard user back to the top of the page.
  const redrawKeepingFocus = (container, draw) => {
    const focused = document.activeElement;
    const key = focused && container.contains(focused)
      ? (focused.getAttribute("href") ? "[href='" + CSS.escape(focused.getAttribute("href")) + "']"
                                      : focused.id ? "#" + CSS.escape(focused.id) : null)
      : null;
    draw();
    if (key) {
      const again = container.querySelector(key);
      if (again) again.focus({ preventScroll: true });
    }
  };

  // ---- Jobs ----
  const jobsView = () => {
    let runningOnly = store.getItem("spindle.runningOnly") === "1";
    let search = "";
    const body = el("div");
    const render = (answer) => {
      const wanted = answer.jobs.filter((job) =>
        (!runningOnly || !["succeeded", "failed", "killed", "unknown"].includes(job.state)) &&
        (!search || JSON.stringify([job.application_id, job.name, job.queue]).toLowerCase().includes(search)));
      const rows = wanted.map((job) => el("tr", { "data-job": job.application_id },
        el("td", {}, el("a", { href: "#/job/" + job.application_id }, job.application_id)),
        el("td", {}, job.name), el("td", {}, job.user), el("td", {}, job.queue),
        el("td", {}, state(job.state)), el("td", {}, time(job.started_ms || job.submitted_ms))));
      redrawKeepingFocus(body, () => body.replaceChildren(
        answer.cluster_problem ? el("p", { class: "error" }, answer.cluster_problem) : "",
        rows.length ? table(["col.application", "col.name", "col.user", "col.queue", "col.state", "col.started"], rows,
                            { id: "jobs" })
                    : el("p", { class: "muted", id: "no-jobs" }, text(answer.jobs.length ? "jobs.none.match" : "jobs.none"))));
    };
    let last = null;
    const page = el("section", {},
      el("div", { class: "toolbar" }, el("h1", {}, text("jobs.title")),
         el("label", {}, el("input", { type: "checkbox", checked: runningOnly, onchange: (event) => {
           runningOnly = event.target.checked;
           store.setItem("spindle.runningOnly", runningOnly ? "1" : "0");
           if (last) render(last);
         } }), " ", text("jobs.running")),
         el("input", { type: "search", placeholder: text("jobs.search"), "aria-label": text("jobs.search"),
                       oninput: (event) => { search = event.target.value.toLowerCase(); if (last) render(last); } })),
      body);
    return {
      page,
      refresh: async () => { last = await api("jobs"); render(last); },
    };
  };

  // ---- One job ----
  const jobView = (id, tab) => {
    const header = el("div", { class: "toolbar" });
    const facts = el("dl", { class: "facts" });
    const tabs = ["containers", "charts", "logs", "tensorboard", "spec"];
    const tabBar = el("div", { class: "tabs", role: "tablist" });
    const panel = el("div", { role: "tabpanel", id: "panel" });
    const page = el("section", {}, header, facts, tabBar, panel);
    let job = null;
    const charts = { points: [], after: 0, newest: 0, plots: new Map() };
    window.spindleCharts = charts;
    const logs = { task: "", file: "stderr", offset: 0, follow: true, text: "" };

    const showTabs = () => {
      tabBar.replaceChildren(...tabs.map((name) => el("button", {
        type: "button", role: "tab", id: "tab-" + name, "aria-selected": String(name === tab),
        onclick: () => { location.hash = "#/job/" + id + "/" + name; } }, text("job.tab." + name))));
    };

    const renderHeader = () => {
      const j = job.job;
      const ended = ["succeeded", "failed", "killed"].includes(j.state);
      // What a running job waits for (its containers), as its application master says.
      const waiting = !ended && job.status && job.status.waiting_for ? job.status.waiting_for : "";
      header.replaceChildren(el("h1", {}, j.name || id), state(j.state), el("span", { class: "muted" }, id),
        ended ? "" : el("button", { type: "button", class: "danger", id: "kill", onclick: kill }, text("job.kill")),
        el("a", { href: "#/submit/" + id }, text("job.again")),
        job.mlflow_run ? el("a", { href: job.mlflow_run, target: "_blank", rel: "noopener" }, text("job.mlflow")) : "");
      facts.replaceChildren(
        el("dt", {}, text("job.user")), el("dd", {}, j.user),
        el("dt", {}, text("job.queue")), el("dd", {}, j.queue),
        el("dt", {}, text("job.started")), el("dd", {}, time(j.started_ms)),
        j.finished_ms ? el("dt", {}, text("job.finished")) : "", j.finished_ms ? el("dd", {}, time(j.finished_ms)) : "",
        j.diagnostics ? el("dt", {}, text("job.diagnostics")) : "", j.diagnostics ? el("dd", {}, j.diagnostics) : "",
        waiting ? el("dt", {}, text("job.waiting")) : "", waiting ? el("dd", { id: "waiting" }, waiting) : "",
        job.tokens_notice ? el("dt", {}, text("job.tokens")) : "",
        job.tokens_notice ? el("dd", { id: "tokens", class: "error" }, job.tokens_notice) : "");
    };

    const renderContainers = () => {
      const tasks = job.status ? job.status.tasks : [];
      if (!tasks.length) { panel.replaceChildren(el("p", { class: "muted" }, text("job.no.status"))); return; }
      panel.replaceChildren(table(
        ["col.task", "col.phase", "col.node", "col.container", "col.restarts", "col.memory", "col.cpu", "col.exit"],
        tasks.map((task) => el("tr", { "data-task": task.task },
          el("td", {}, el("a", { href: "#/job/" + id + "/logs/" + task.task }, task.task)),
          el("td", { "data-phase": task.phase }, state(task.phase),
            task.stalled ? el("span", { class: "stalled", title: task.stalled }, " ", text("job.stalled")) : ""),
          el("td", {}, task.node || ""),
          el("td", {}, task.container || ""), el("td", {}, task.restarts || 0), el("td", {}, mib(task.rss_bytes)),
          el("td", {}, task.cpu_seconds ? task.cpu_seconds.toFixed(1) : ""),
          el("td", {}, task.exit_code === undefined || task.exit_code === null ? "" : task.exit_description || task.exit_code))),
        { id: "containers" }));
    };

    const chartColors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
    const plot = (key, title, xIsTime, seriesMap) => {
      const names = [...seriesMap.keys()].sort();
      const xs = [...new Set(names.flatMap((name) => seriesMap.get(name).map((p) => p[0])))].sort((a, b) => a - b);
      const columns = names.map((name) => {
        const byX = new Map(seriesMap.get(name).map((p) => [p[0], p[1]]));
        return xs.map((x) => (byX.has(x) ? byX.get(x) : null));
      });
      const data = [xs, ...columns];
      let entry = charts.plots.get(key);
      const shape = names.join("\n");
      if (entry && entry.shape === shape) { entry.plot.setData(data); return entry.box; }
      if (entry) entry.plot.destroy();
      const box = el("div", { class: "chart", "data-chart": key }, el("h3", {}, title));
      // Two charts side by side fill the page's width (app.css), one alone on a narrow window: the page
      // less its padding, the gap between the columns, and each box's border and padding.
      const room = document.getElementById("view").clientWidth - 32;
      const perRow = window.innerWidth > 760 ? 2 : 1;
      const width = Math.max(240, Math.floor((room - 16 * (perRow - 1)) / perRow) - 16);
      const options = {
        width, height: 220, scales: { x: { time: xIsTime } },
        series: [{ label: xIsTime ? "time" : "step" },
                 ...names.map((name, i) => ({ label: name, stroke: chartColors[i % chartColors.length], spanGaps: true,
                                             points: { show: xs.length < 2 } }))],
        axes: [{ stroke: getComputedStyle(document.body).color }, { stroke: getComputedStyle(document.body).color }],
      };
      const made = new window.uPlot(options, data, box);
      charts.plots.set(key, { plot: made, box, shape });
      return box;
    };

    const renderCharts = async () => {
      const answer = await api("jobs/" + id + "/metrics?after=" + charts.after);
      for (const point of answer.points) {
        charts.points.push(point);
        charts.newest = Math.max(charts.newest, point.wall_time);
      }
      charts.after = answer.next;
      if (tab !== "charts") return;
      const scalars = new Map();
      const memory = new Map();
      const cpu = new Map();
      const lastCpu = new Map();  // task -> [wall time, CPU seconds] of its previous sample
      for (const point of charts.points) {
        if (point.source === "tfevents") {
          if (!scalars.has(point.tag)) scalars.set(point.tag, new Map());
          const runs = scalars.get(point.tag);
          if (!runs.has(point.run)) runs.set(point.run, []);
          runs.get(point.run).push([point.step, point.value]);
        } else if (point.tag === "memory_bytes") {
          if (!memory.has(point.run)) memory.set(point.run, []);
          memory.get(point.run).push([point.wall_time, point.value / 1048576]);
        } else if (point.tag === "cpu_seconds") {
          // The executor reports CPU seconds so far with each heartbeat, while the server samples them more
          // often: the cores in use are taken between two different reports, or over 10 s of none.
          const last = lastCpu.get(point.run);
          if (!last || point.value < last[1]) {
            lastCpu.set(point.run, [point.wall_time, point.value]);
          } else if (point.wall_time > last[0] && (point.value > last[1] || point.wall_time - last[0] >= 10)) {
            if (!cpu.has(point.run)) cpu.set(point.run, []);
            cpu.get(point.run).push([point.wall_time, (point.value - last[1]) / (point.wall_time - last[0])]);
            lastCpu.set(point.run, [point.wall_time, point.value]);
          }
        }
      }
      const boxes = [...scalars.keys()].sort().map((tag) => plot("scalar:" + tag, tag, false, scalars.get(tag)));
      if (memory.size) boxes.push(plot("memory", text("chart.memory"), true, memory));
      if (cpu.size) boxes.push(plot("cpu", text("chart.cpu"), true, cpu));
      panel.replaceChildren(boxes.length ? el("div", { class: "charts" }, boxes)
                                         : el("p", { class: "muted" }, text("job.no.points")));
    };

    const renderLogs = async () => {
      const tasks = job.status ? job.status.tasks.map((task) => task.task) : [];
      if (!logs.task) logs.task = route.task || tasks[0] || "master";
      const pre = panel.querySelector("pre.log") || el("pre", { class: "log", id: "log", tabindex: "0" });
      if (!panel.contains(pre)) {
        const taskChoice = el("select", { id: "log-task", "aria-label": text("logs.task"), onchange: (event) => {
          logs.task = event.target.value; logs.offset = 0; logs.text = ""; pre.textContent = ""; renderLogs(); } },
          ["master", ...tasks].map((name) => el("option", { value: name, selected: name === logs.task }, name)));
        const fileChoice = el("select", { id: "log-file", "aria-label": text("logs.file"), onchange: (event) => {
          logs.file = event.target.value; logs.offset = 0; logs.text = ""; pre.textContent = ""; renderLogs(); } },
          ["stderr", "stdout"].map((name) => el("option", { value: name, selected: name === logs.file }, name)));
        const follow = el("label", {}, el("input", { type: "checkbox", id: "log-follow", checked: logs.follow,
          onchange: (event) => { logs.follow = event.target.checked; } }), " ", text("logs.follow"));
        panel.replaceChildren(el("div", { class: "toolbar" }, text("logs.task"), taskChoice, text("logs.file"),
                                 fileChoice, follow), pre);
      }
      const answer = await api("jobs/" + id + "/logs?task=" + encodeURIComponent(logs.task) + "&file=" +
                               encodeURIComponent(logs.file) + "&offset=" + logs.offset);
      if (answer.offset < logs.offset) logs.text = "";
      logs.text += answer.text;
      logs.offset = answer.size;
      const atEnd = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
      pre.textContent = logs.text || text("logs.empty");
      if (logs.follow && atEnd) pre.scrollTop = pre.scrollHeight;
    };

    const renderTensorBoard = () => {
      if (!job.tensorboard) { panel.replaceChildren(el("p", { class: "muted" }, text("job.no.tensorboard"))); return; }
      if (!panel.querySelector("iframe")) {
        panel.replaceChildren(el("iframe", { class: "tensorboard", id: "tensorboard", src: job.tensorboard,
                                             title: "TensorBoard" }));
      }
    };

    const renderSpec = async () => {
      if (panel.querySelector("pre")) return;
      const answer = await api("jobs/" + id + "/spec", { accept: [404] });
      panel.replaceChildren(el("pre", { class: "log", id: "spec" }, answer.spec || answer.error));
    };

    const kill = async () => {
      if (!window.confirm(text("job.kill.confirm", id))) return;
      try {
        const answer = await api("jobs/" + id + "/kill", { post: true });
        say(text("job.killed", id, answer.state));
        await refresh();
      } catch (error) { say(error.message, true); }
    };

    const refresh = async () => {
      job = await api("jobs/" + id);
      renderHeader();
      if (tab === "containers") renderContainers();
      else if (tab === "logs") await renderLogs();
      else if (tab === "tensorboard") renderTensorBoard();
      else if (tab === "spec") await renderSpec();
      if (tab === "charts" || job.newest_point > charts.newest) await renderCharts();
    };
    showTabs();
    return { page, refresh, job: id };
  };

  // ---- Sweeps ----
  const number = (value) => (value === null || value === undefined ? "" : Number(value).toPrecision(6).replace(/\.?0+$/, ""));
  const parameterText = (trial) => Object.entries(trial.parameters).map(([name, value]) => name + "=" + value).join(" ");

  const sweepsView = () => {
    const body = el("div");
    const page = el("section", {}, el("div", { class: "toolbar" }, el("h1", {}, text("sweeps.title"))), body);
    return {
      page,
      refresh: async () => {
        const answer = await api("sweeps");
        const rows = answer.sweeps.map((sweep) => {
          const ended = sweep.trials.filter((t) => !["waiting", "submitted", "running"].includes(t.state)).length;
          const best = sweep.trials.find((t) => t.trial === sweep.best_trial);
          return el("tr", { "data-sweep": sweep.sweep_id },
            el("td", {}, el("a", { href: "#/sweep/" + sweep.sweep_id }, sweep.sweep_id)), el("td", {}, sweep.name),
            el("td", {}, state(sweep.state)), el("td", {}, ended + " / " + sweep.trials.length),
            el("td", {}, best ? text("sweeps.best", best.trial, sweep.metric, number(best.best.value)) : ""),
            el("td", {}, time(sweep.submitted_ms)));
        });
        body.replaceChildren(rows.length
          ? table(["col.sweep", "col.name", "col.state", "col.ended", "col.best", "col.started"], rows, { id: "sweeps" })
          : el("p", { class: "muted", id: "no-sweeps" }, text("sweeps.none")));
      },
    };
  };

  const sweepView = (id) => {
    const header = el("div", { class: "toolbar" });
    const facts = el("dl", { class: "facts" });
    const trialsBox = el("div");
    const chartBox = el("div", { class: "charts" });
    const compareBox = el("div", { id: "compare" });
    const page = el("section", {}, header, facts, trialsBox, el("h2", {}, text("sweep.chart")), chartBox, compareBox);
    const chosen = new Set();
    let sweep = null;
    let chart = null;

    const end = async (trial, stop) => {
      if (!window.confirm(text(stop ? "trial.stop.confirm" : "trial.kill.confirm", trial))) return;
      try {
        await api("sweeps/" + id + "/trials/" + trial + "/" + (stop ? "stop" : "kill"), { post: true });
        say(text(stop ? "trial.stopped" : "trial.killed", trial));
        await refresh();
      } catch (error) { say(error.message, true); }
    };
    const killSweep = async () => {
      if (!window.confirm(text("sweep.kill.confirm", id))) return;
      try {
        await api("sweeps/" + id + "/kill", { post: true });
        say(text("sweep.killed", id));
        await refresh();
      } catch (error) { say(error.message, true); }
    };

    const drawChart = () => {
      const shown = sweep.trials.filter((t) => (chosen.size ? chosen.has(t.trial) : true) && sweep.series[String(t.trial)]);
      const xs = [...new Set(shown.flatMap((t) => sweep.series[String(t.trial)].map((p) => p[0])))].sort((a, b) => a - b);
      const columns = shown.map((t) => {
        const byStep = new Map(sweep.series[String(t.trial)].map((p) => [p[0], p[1]]));
        return xs.map((x) => (byStep.has(x) ? byStep.get(x) : null));
      });
      if (chart) { chart.destroy(); chart = null; }
      if (!shown.length) {
        chartBox.replaceChildren(el("p", { class: "muted", id: "no-series" }, text("sweep.no.points")));
        return;
      }
      const colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
      // How many trials the chart has points of, for whoever waits for them (the page's tests).
      const drawn = shown.filter((t) => sweep.series[String(t.trial)].length > 0).length;
      const box = el("div", { class: "chart wide", "data-chart": "sweep", "data-drawn": String(drawn) },
                     el("h3", {}, sweep.metric + " (" + sweep.goal + ")"));
      chartBox.replaceChildren(box);
      const width = Math.max(320, document.getElementById("view").clientWidth - 64);
      chart = new window.uPlot({
        width, height: 260, scales: { x: { time: false } },
        series: [{ label: "step" }, ...shown.map((t, i) => ({ label: text("trial", t.trial), stroke: colors[i % colors.length],
                                                             spanGaps: true, points: { show: xs.length < 2 } }))],
        axes: [{ stroke: getComputedStyle(document.body).color }, { stroke: getComputedStyle(document.body).color }],
      }, [xs, ...columns], box);
    };

    const drawCompare = () => {
      const picked = sweep.trials.filter((t) => chosen.has(t.trial));
      if (picked.length < 2) {
        compareBox.replaceChildren(el("p", { class: "muted" }, text("sweep.compare.hint")));
        return;
      }
      const names = [...new Set(picked.flatMap((t) => Object.keys(t.parameters)))];
      const row = (label, cells) => el("tr", {}, el("th", { scope: "row" }, label), cells.map((c) => el("td", {}, c)));
      compareBox.replaceChildren(el("h2", {}, text("sweep.compare")), el("table", { id: "comparison" },
        el("thead", {}, el("tr", {}, el("th", {}, ""), picked.map((t) => el("th", { scope: "col" }, text("trial", t.trial))))),
        el("tbody", {},
          names.map((name) => row(name, picked.map((t) => t.parameters[name] ?? ""))),
          row(text("col.state"), picked.map((t) => state(t.state))),
          row(text("col.best"), picked.map((t) => (t.best ? number(t.best.value) + " @ " + t.best.step : ""))),
          row(text("col.last"), picked.map((t) => (t.last ? number(t.last.value) + " @ " + t.last.step : ""))),
          row(text("col.why"), picked.map((t) => t.why)))));
    };

    const render = () => {
      const running = sweep.state === "running";
      header.replaceChildren(el("h1", {}, sweep.name || id), state(sweep.state), el("span", { class: "muted" }, id),
        sweep.mlflow ? el("a", { href: sweep.mlflow, target: "_blank", rel: "noopener", id: "sweep-mlflow" }, text("job.mlflow")) : "",
        running ? el("button", { type: "button", class: "danger", id: "kill-sweep", onclick: killSweep }, text("sweep.kill")) : "");
      const best = sweep.trials.find((t) => t.trial === sweep.best_trial);
      facts.replaceChildren(
        el("dt", {}, text("sweep.metric")), el("dd", {}, sweep.metric + " (" + sweep.goal + ")"),
        el("dt", {}, text("sweep.search")), el("dd", {}, (sweep.search.method || "") + ", " + (sweep.search.parallel || 1) + " " + text("sweep.at.once") +
          (sweep.search.early_stopping ? ", " + sweep.search.early_stopping.rule + " @ " + sweep.search.early_stopping.steps.join(", ") : "")),
        el("dt", {}, text("col.best")), el("dd", { id: "best" }, best ? text("sweeps.best", best.trial, sweep.metric, number(best.best.value)) : "\u2014"),
        sweep.diagnostics ? el("dt", {}, text("job.diagnostics")) : "", sweep.diagnostics ? el("dd", {}, sweep.diagnostics) : "",
        sweep.note ? el("dt", {}, text("sweep.note")) : "", sweep.note ? el("dd", {}, sweep.note) : "");
      const names = [...new Set(sweep.trials.flatMap((t) => Object.keys(t.parameters)))];
      const rows = sweep.trials.map((t) => {
        const live = ["submitted", "running"].includes(t.state);
        return el("tr", { "data-trial": String(t.trial) },
          el("td", {}, el("input", { type: "checkbox", id: "pick-" + t.trial, "aria-label": text("sweep.pick", t.trial),
                                     checked: chosen.has(t.trial), onchange: (event) => {
                                       if (event.target.checked) chosen.add(t.trial); else chosen.delete(t.trial);
                                       drawChart(); drawCompare(); } })),
          el("td", {}, String(t.trial)),
          names.map((name) => el("td", {}, t.parameters[name] ?? "")),
          el("td", { "data-state": t.state }, state(t.state)),
          el("td", {}, t.application_id ? el("a", { href: "#/job/" + t.application_id }, t.application_id) : ""),
          el("td", {}, t.best ? number(t.best.value) : ""), el("td", {}, t.best ? String(t.best.step) : ""),
          el("td", { class: "why" }, t.state === "succeeded" ? "" : t.why),
          el("td", {}, live ? [el("button", { type: "button", id: "stop-" + t.trial, onclick: () => end(t.trial, true) }, text("trial.stop")), " ",
                               el("button", { type: "button", class: "danger", id: "kill-" + t.trial, onclick: () => end(t.trial, false) }, text("trial.kill"))] : ""));
      });
      const columns = ["col.pick", "col.trial", ...names.map((name) => name), "col.state", "col.application", "col.best", "col.step", "col.why", "col.actions"];
      redrawKeepingFocus(trialsBox, () => trialsBox.replaceChildren(el("table", { id: "trials" },
        el("thead", {}, el("tr", {}, columns.map((key) => el("th", { scope: "col" }, names.includes(key) ? key : text(key))))),
        el("tbody", {}, rows))));
      if (sweep.series_problem) say(sweep.series_problem, true);
      drawChart();
      drawCompare();
    };

    const refresh = async () => {
      sweep = await api("sweeps/" + id);
      render();
    };
    // A sweep lives in HDFS, not in the server's live updates: the page asks again every few seconds.
    // A new theme redraws the chart (it takes its colours when drawn), keeping the ticked trials.
    return { page, refresh, every: 3000, restyle: () => { if (sweep) drawChart(); } };
  };

  // ---- Cluster ----
  const clusterView = () => {
    const body = el("div");
    const page = el("section", {}, el("div", { class: "toolbar" }, el("h1", {}, text("cluster.title"))), body);
    const queueRows = (queue, depth) => [
      el("tr", { "data-queue": queue.name }, el("td", {}, "\u2003".repeat(depth) + queue.name),
         el("td", {}, queue.state), el("td", {}, (queue.current_capacity * 100).toFixed(0) + " / " +
                                                (queue.capacity * 100).toFixed(0)),
         el("td", {}, queue.apps_running + " / " + queue.apps_pending),
         el("td", {}, (queue.accessible_labels || []).join(", "))),
      ...queue.children.flatMap((child) => queueRows(child, depth + 1))];
    const resources = (r) => r.memory_mib + " MiB, " + r.vcores + " vcores" + (r["yarn.io/gpu"] ? ", " + r["yarn.io/gpu"] + " GPU" : "");
    return {
      page,
      refresh: async () => {
        const answer = await api("cluster");
        body.replaceChildren(
          el("h2", {}, text("cluster.nodes")),
          table(["col.id", "col.state", "col.labels", "col.containers", "col.used", "col.capability"],
                answer.nodes.map((node) => el("tr", { "data-node": node.id }, el("td", {}, node.id),
                  el("td", {}, state(node.state.toLowerCase())), el("td", {}, node.labels.join(", ")),
                  el("td", {}, node.containers), el("td", {}, resources(node.used)),
                  el("td", {}, resources(node.capability)))), { id: "nodes" }),
          el("h2", {}, text("cluster.queues")),
          table(["col.queue", "col.state", "col.capacity", "col.apps", "col.labels"], queueRows(answer.queues, 0),
                { id: "queues" }));
      },
    };
  };

  // ---- Submit ----
  const submitView = (fromJob) => {
    const editor = el("textarea", { id: "spec-text", spellcheck: "false", "aria-label": "spec",
                                    placeholder: text("submit.placeholder") });
    editor.value = draft;
    const verdict = el("div", { id: "verdict", "aria-live": "polite" });
    // Local files of the spec the server's machine has not got, and what this browser attaches for them.
    let missing = [];
    const attached = new Map();
    const attachments = () => el("div", { id: "attachments" },
      el("h3", {}, text("submit.attach")),
      el("ul", { class: "attach" }, missing.map((file, index) => {
        const chosen = attached.get(file.name);
        const input = el("input", { type: "file", id: "attach-" + index, "data-name": file.name,
                                    "aria-label": file.key + ": " + file.name });
        const status = el("span", { class: "muted" }, chosen ? text("submit.attached", chosen.name) : "");
        input.addEventListener("change", () => {
          if (!input.files.length) return;
          attached.set(file.name, input.files[0]);
          status.textContent = text("submit.attached", input.files[0].name);
        });
        return el("li", {}, el("label", { for: "attach-" + index }, file.key + ": " + file.name + " (" + file.source + ")"),
                  " ", input, " ", status);
      })));
    // A Kerberos login for a job that outlives its delegation tokens: the keytab goes to the server with the
    // submit, and from there to the job's application master alone.
    const principal = el("input", { type: "text", id: "keytab-principal", autocomplete: "off",
                                    placeholder: "alice@EXAMPLE.COM", "aria-label": text("submit.principal") });
    const keytab = el("input", { type: "file", id: "keytab-file", "aria-label": text("submit.keytab") });
    const login = el("details", { id: "kerberos-login" },
      el("summary", {}, text("submit.login")),
      el("p", { class: "muted" }, text("submit.login_why")),
      el("p", {}, el("label", { for: "keytab-principal" }, text("submit.principal")), " ", principal),
      el("p", {}, el("label", { for: "keytab-file" }, text("submit.keytab")), " ", keytab));
    let timer = null;
    const check = async () => {
      if (!editor.value.trim()) { verdict.replaceChildren(); return; }
      const answer = await api("validate", { body: editor.value });
      const parts = [];
      if (answer.valid) parts.push(el("p", { id: "valid" }, text("submit.valid")));
      else parts.push(el("h3", {}, text("submit.problems")),
                      el("ul", { class: "problems", id: "problems" }, answer.problems.map((p) => el("li", {}, p.sentence))));
      if (answer.fit) parts.push(el("h3", {}, text("submit.fit")),
                                 el("ul", { class: "fits" }, [...answer.fit.warnings, ...answer.fit.sentences].map((s) => el("li", {}, s))));
      if (answer.fit_problem) parts.push(el("p", { class: "muted" }, answer.fit_problem));
      missing = answer.missing_files || [];
      if (missing.length) parts.push(attachments());
      verdict.replaceChildren(...parts);
    };
    editor.addEventListener("input", () => {
      draft = editor.value;
      clearTimeout(timer);
      timer = setTimeout(check, 400);
    });
    const base64Of = async (file) => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = "";
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(binary);
    };
    const submit = async () => {
      try {
        const files = [];
        for (const file of missing) {
          const chosen = attached.get(file.name);
          if (chosen) files.push({ name: file.name, content: await base64Of(chosen) });
        }
        const withLogin = keytab.files.length > 0;
        if (withLogin !== (principal.value.trim() !== "")) throw new Error(text("submit.login_both"));
        const envelope = { spec: editor.value, files };
        if (withLogin) envelope.keytab = { principal: principal.value.trim(), content: await base64Of(keytab.files[0]) };
        const answer = files.length || withLogin
          ? await api("submit", { body: JSON.stringify(envelope), json: true })
          : await api("submit", { body: editor.value });
        say(text("submit.submitted", answer.application_id));
        location.hash = "#/job/" + answer.application_id;
      } catch (error) {
        say(error.message, true);
        if (error.body && error.body.problems) {
          verdict.replaceChildren(el("ul", { class: "problems", id: "problems" },
                                     error.body.problems.map((p) => el("li", {}, p.sentence))));
        }
      }
    };
    const page = el("section", {},
      el("div", { class: "toolbar" }, el("h1", {}, text("submit.title")),
         el("button", { type: "button", id: "check", onclick: check }, text("submit.validate")),
         el("button", { type: "button", id: "submit", onclick: submit }, text("submit.submit"))),
      el("div", { class: "submit" }, editor, verdict), login);
    return {
      page,
      refresh: async () => {
        if (draft.trim()) await check();
        if (fromJob && !editor.dataset.loaded) {
          editor.dataset.loaded = "1";
          const answer = await api("jobs/" + fromJob + "/spec", { accept: [404] });
          if (answer.spec) { editor.value = draft = answer.spec; await check(); }
          else say(answer.error, true);
        }
      },
      still: true,
    };
  };

  // ---- Routing and the live loop ----
  const parseRoute = () => {
    const parts = location.hash.replace(/^#\/?/, "").split("/");
    if (parts[0] === "job" && parts[1]) return { view: "job", id: parts[1], tab: parts[2] || "containers", task: parts[3] };
    if (parts[0] === "cluster") return { view: "cluster" };
    if (parts[0] === "sweeps") return { view: "sweeps" };
    if (parts[0] === "sweep" && parts[1]) return { view: "sweep", id: parts[1] };
    if (parts[0] === "submit") return { view: "submit", from: parts[1] };
    return { view: "jobs" };
  };

  let every = null;  // the timer of a page that refreshes on its own
  const show = async () => {
    document.body.dataset.ready = "";
    clearInterval(every);
    route = parseRoute();
    for (const link of document.querySelectorAll("[data-nav]")) {
      link.classList.toggle("current", link.dataset.nav === (route.view === "job" ? "jobs" : route.view === "sweep" ? "sweeps" : route.view));
    }
    view = route.view === "job" ? jobView(route.id, route.tab)
         : route.view === "cluster" ? clusterView()
         : route.view === "sweeps" ? sweepsView()
         : route.view === "sweep" ? sweepView(route.id)
         : route.view === "submit" ? submitView(route.from)
         : jobsView();
    const main = document.getElementById("view");
    main.replaceChildren(el("p", { class: "muted" }, text("loading")));
    try {
      await view.refresh();
      main.replaceChildren(view.page);
      // Keyboard users land on the new page, not on the link they left.
      main.focus({ preventScroll: true });
      say("");
    } catch (error) {
      main.replaceChildren(view.page);
      say(error.message, true);
    }
    document.body.dataset.ready = route.view;
    if (view.every) {
      const shown = view;
      every = setInterval(() => {
        if (view === shown) shown.refresh().catch((error) => say(error.message, true));
      }, shown.every);
    }
  };

  const live = async () => {
    for (;;) {
      try {
        const job = view && view.job ? "&job=" + view.job : "";
        const answer = await api("updates?after=" + version + job);
        if (answer.version !== version) {
          version = answer.version;
          if (view && !view.still) {
            await view.refresh();
            document.body.dataset.version = String(version);
            say(text("live", new Date().toLocaleTimeString(language)));
          }
        }
      } catch (error) {
        say(text("error.network", error.message), true);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  };

  const applyLook = () => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.lang = language;
    for (const node of document.querySelectorAll("[data-text]")) node.textContent = text(node.dataset.text);
    document.getElementById("theme").textContent = text(theme === "dark" ? "theme.toggle.light" : "theme.toggle");
    document.getElementById("language").textContent = text("language.other");
    if (user) document.getElementById("user").textContent = text("user", user);
  };

  document.getElementById("theme").addEventListener("click", () => {
    theme = theme === "dark" ? "light" : "dark";
    store.setItem("spindle.theme", theme);
    applyLook();
    // Charts take their colours when drawn; everything else follows the style sheet.
    if (view && view.restyle) view.restyle();
    else if (route.view === "job" && route.tab === "charts") show();
  });
  document.getElementById("language").addEventListener("click", () => {
    language = language === "de" ? "en" : "de";
    store.setItem("spindle.language", language);
    applyLook();
    show();
  });
  window.addEventListener("hashchange", show);
  applyLook();
  api("session").then((session) => {
    user = session.user;
    applyLook();
  }).catch((error) => say(error.message, true));
  show().then(live);
})();
