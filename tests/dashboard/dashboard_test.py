#!/usr/bin/env python3
"""The dashboard in a real browser (Debian's chromium, headless).

Starts `schedmate serve` on a free 127.0.0.1 port over a temporary SQLite
history, writes one finished job to the history, makes real advise, track and
diagnose calls with curl on small fixtures (tests/agent/job_repo and logs in
its format, one with HTML in its error line), audits a recovery plan with
`schedmate diagnose --audit` into the same file, then loads the page with
`chromium --headless --dump-dom` and checks the rendered DOM against what the
API answered: every job id, the estimate and its matched history, the
progress (step, step time, ETA), the root-cause line and its located lines,
the audit trail's newest record and the request count per endpoint. Text from
logs must arrive as text: the HTML in the log line must not become an
element. Screenshots go to build/test-artifacts/dashboard.png (the first screen)
and dashboard-full.png (the whole page), the DOM to dashboard.html.

Usage: dashboard_test.py SCHEDMATE_BIN [ARTIFACT_DIR]. Exit 77 (CTest SKIP)
when chromium or curl is missing.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = "dashboard-test-token-0123456789"
XSS = '<img src=x onerror="document.title=\'pwned\'">'


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def fail(why):
    print("dashboard: FAIL: " + why, file=sys.stderr)
    sys.exit(1)


def ok(what):
    print("dashboard: ok: " + what)


def progress_lines(n, total):
    return [f"Epoch 1 | step {i}/{total} | loss {6.9 * 0.95 ** i:.4f} | lr 0.1000 | 426.7 samples/s | 0.150 s/step"
            for i in range(1, n + 1)]


def write_logs(root):
    logs = {}
    logs["train"] = progress_lines(30, 40)
    logs["ecc"] = ["Running on node2, CUDA_VISIBLE_DEVICES=0",
                   "model=resnet101 dataset=imagenet batch_size=64 max_steps=40"] + progress_lines(12, 40) + [
        "[rank0]: NVRM: Xid (PCI:0000:3b:00): 48, pid=4242, DBE (double bit error) ECC error, page retirement pending",
        "Traceback (most recent call last):",
        '  File "train.py", line 61, in <module>',
        "    loss.backward()",
        "RuntimeError: CUDA error: uncorrectable ECC error encountered"]
    logs["keyerror"] = ["Running on node3, CUDA_VISIBLE_DEVICES=1"] + progress_lines(3, 40) + [
        "Traceback (most recent call last):",
        '  File "train.py", line 46, in <module>',
        "    target = sample[args.label_key]",
        f"KeyError: '{XSS}'"]
    paths = {}
    for name, lines in logs.items():
        paths[name] = os.path.join(root, "logs", name + ".log")
        os.makedirs(os.path.dirname(paths[name]), exist_ok=True)
        with open(paths[name], "w") as f:
            f.write("\n".join(lines) + "\n")
    return paths


class Service:
    def __init__(self, binary, work, root):
        token_file = os.path.join(work, "token")
        with open(os.open(token_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(TOKEN + "\n")
        self.history = os.path.join(work, "history.db")
        self.proc = subprocess.Popen([binary, "serve", "--port", "0", "--history", self.history, "--allow-root", root,
                                      "--token-file", token_file], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        line = self.proc.stdout.readline()
        if "listening on http://" not in line:
            fail("serve did not start: " + line + self.proc.stdout.read())
        self.url = line.split("listening on ")[1].split()[0]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def call(self, path, body=None, token=False, expect=200):
        cmd = ["curl", "-sS", "-o", "-", "-w", "\n%{http_code}", "--max-time", "10", self.url + path]
        if body is not None:
            cmd += ["-H", "Content-Type: application/json", "--data-binary", json.dumps(body)]
        if token:
            cmd += ["-H", "Authorization: Bearer " + TOKEN]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        text, _, status = out.rpartition("\n")
        if int(status) != expect:
            fail(f"{path} answered {status}, not {expect}: {text}")
        return text if path == "/metrics" else json.loads(text)


class Dom(html.parser.HTMLParser):
    """Elements (tag, attributes) and the page's text, as the browser left them."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.texts = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.texts.append(data)

    def text(self):
        return " ".join(" ".join(self.texts).split())

    def with_attr(self, name, value=None):
        return [a for _, a in self.elements if name in a and (value is None or a[name] == str(value))]


def chromium(binary, work, url, *mode):
    profile = tempfile.mkdtemp(dir=work, prefix="chromium-")
    cmd = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + profile,
           "--virtual-time-budget=5000", *mode, url]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        fail("chromium failed (%d): %s" % (r.returncode, r.stderr[-2000:]))
    return r.stdout


def main():
    if len(sys.argv) < 2:
        fail("usage: dashboard_test.py SCHEDMATE_BIN [ARTIFACT_DIR]")
    binary = os.path.realpath(sys.argv[1])
    artifacts = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build", "test-artifacts")
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        skip("Debian's chromium is not installed (scripts/install_deps.sh installs it)")
    if not shutil.which("curl"):
        skip("curl is not installed")
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="schedmate-dashboard.")
    root = os.path.join(work, "root")
    repo = os.path.join(root, "repo")
    shutil.copytree(os.path.join(ROOT, "tests", "agent", "job_repo"), repo)
    logs = write_logs(root)
    service = Service(binary, work, root)
    try:
        run(service, binary, browser, work, repo, logs, artifacts)
    finally:
        service.stop()
    shutil.rmtree(work, ignore_errors=True)
    print("dashboard: PASS in %.1f s" % (time.time() - t0))


def run(service, binary, browser, work, repo, logs, artifacts):
    # A finished job in history, then the jobs the service answers for.
    done = int(time.time()) - 600
    service.call("/v1/history", {"record": {"schema_version": 1, "job_id": "slurm-101", "completed_at_s": done,
                                            "duration_s": 3600, "end_reason": "completed"},
                                 "repo": repo, "cmd": "bash job.sh"}, token=True, expect=201)
    advice = service.call("/v1/advise", {"repo": repo, "cmd": "bash job.sh", "job_id": "slurm-201"})
    service.call("/v1/advise", {"repo": repo, "cmd": "bash job_ecc.sh", "job_id": "slurm-202"})
    if advice["estimate"]["method"] != "history" or advice["estimate"]["matches"][0]["id"] != "slurm-101":
        fail("the renamed job did not match its history: %s" % advice["estimate"])
    progress = service.call("/v1/track", {"log_path": logs["train"], "job_id": "slurm-201"})
    ecc = service.call("/v1/diagnose", {"log_path": logs["ecc"], "job": {"job_id": "slurm-202", "node": "node2"}})
    service.call("/v1/diagnose", {"log_path": logs["keyerror"], "job": {"job_id": "slurm-203", "node": "node3"}})
    service.call("/v1/track", {"log_path": logs["keyerror"]})  # no job_id: a row of its own, by log path
    # The audit trail, written where the agent and `diagnose --audit` keep it.
    subprocess.run([binary, "diagnose", logs["ecc"], "--job", "slurm-202", "--node", "node2", "--history",
                    service.history, "--audit", os.path.join(work, "audit.jsonl")], check=True,
                   capture_output=True)

    jobs = service.call("/v1/jobs")["jobs"]
    audit = service.call("/v1/audit")["records"]
    metrics = service.call("/metrics")
    if len(jobs) != 4 or not audit:
        fail("expected 4 jobs and an audit trail, got %d jobs, %d audit records" % (len(jobs), len(audit)))
    by_id = {j["id"]: j for j in jobs}
    match = by_id["slurm-201"]["advice"]["estimate"]["matches"][0]
    if match["record"] is None or match["record"]["duration_s"] != 3600:
        fail("/v1/jobs does not join the match with its record: %s" % match)
    ok("API: %d jobs, %d audit records, match %s joined with its record" % (len(jobs), len(audit), match["id"]))

    dom_text = chromium(browser, work, service.url + "/", "--dump-dom")
    dom = Dom(dom_text)
    text = dom.text()
    check_dom(dom, text, jobs, by_id, advice, progress, ecc, audit, metrics)

    # The first screen, and the whole page (every panel) as a second artefact.
    os.makedirs(artifacts, exist_ok=True)
    for name, size in (("dashboard.png", "1400,1000"), ("dashboard-full.png", "1400,2400")):
        shot = os.path.join(os.path.abspath(artifacts), name)
        if os.path.exists(shot):
            os.remove(shot)
        chromium(browser, work, service.url + "/", "--screenshot=" + shot, "--window-size=" + size)
        if not os.path.exists(shot) or os.path.getsize(shot) < 10000:
            fail("no screenshot at " + shot)
        ok("screenshot " + shot + " (%d bytes)" % os.path.getsize(shot))
    with open(os.path.join(os.path.abspath(artifacts), "dashboard.html"), "w") as f:
        f.write(dom_text)


def check_dom(dom, text, jobs, by_id, advice, progress, ecc, audit, metrics):
    rows = {a["data-job-id"] for a in dom.with_attr("data-job-id")}
    missing = [j["id"] for j in jobs if j["id"] not in rows]
    if missing:
        fail("job ids not on the page: %s" % missing)
    ok("every job id of /v1/jobs is on the page: " + ", ".join(sorted(rows)))

    estimate = advice["estimate"]["duration_s"]
    if not dom.with_attr("data-estimate-s", fmt(estimate)) or "slurm-101" not in text:
        fail("the estimate %s s and its match slurm-101 are not on the page" % estimate)
    if not dom.with_attr("data-provenance", "model_name") or "resnet50" not in text:
        fail("the metadata's provenance is not on the page")
    ok("estimate %s s (method history, match slurm-101) and provenance shown" % fmt(estimate))

    for attr, value in (("data-step", progress["step"]), ("data-step-time-s", progress["step_time_s"]),
                        ("data-eta-s", progress["eta_s"])):
        if not dom.with_attr(attr, fmt(value)):
            fail("progress %s=%s is not on the page" % (attr, fmt(value)))
    ok("progress: step %s, step time %s s, ETA %s s" % (progress["step"], progress["step_time_s"],
                                                        fmt(progress["eta_s"])))

    if ecc["root_cause_line"] not in text:
        fail("the root-cause line is not on the page: " + ecc["root_cause_line"])
    context = by_id["slurm-202"]["failure"]["context"]
    if len(context) < 3 or any(" ".join(c["text"].split()) not in text for c in context):
        fail("the located context lines are not all on the page")
    if len(dom.with_attr("data-root", "true")) < 2:
        fail("the root-cause lines are not marked in the located context")
    ok("root cause '%s' and %d located lines shown" % (ecc["root_cause_line"][:50], len(context)))

    if any(tag == "img" for tag, _ in dom.elements) or XSS not in text:
        fail("the HTML in a log line became markup instead of text")
    ok("HTML from a log line is shown as text, not markup")

    newest = audit[-1]
    audit_rows = dom.with_attr("data-audit-step", newest["step"])
    if not audit_rows or newest["why"] not in text:
        fail("the newest audit record (%s: %s) is not on the page" % (newest["step"], newest["why"]))
    ok("audit log: %d records, newest '%s: %s'" % (len(audit), newest["step"], newest["why"]))

    advise_count = sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                       if line.startswith('schedmate_http_requests_total{endpoint="advise"'))
    if not dom.with_attr("data-requests", fmt(advise_count)) or not dom.with_attr("data-endpoint", "advise"):
        fail("the advise request count %s is not on the chart" % fmt(advise_count))
    ok("metrics chart: advise requests = %s" % fmt(advise_count))


def fmt(v):
    """A number as the page's JavaScript writes it into an attribute."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, float) else str(v)


if __name__ == "__main__":
    main()
