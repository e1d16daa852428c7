"""`spindle serve --keytab` on the secure local YARN: Kerberos logins (SPNEGO) beside the token,
with the cluster's HTTP key and real tickets of two users from its KDC. curl (built with GSS-API)
and Debian's headless Chromium sign in; only the user the server acts for gets in.

Run by ctest (labels secure, serve) with SPINDLE_CLI, SPINDLE_SOURCE_DIR, SPINDLE_LOCAL_YARN_DIR
(the secure cluster) and HADOOP_CONF_DIR set."""

import base64
import glob
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from secure_test import CLUSTER, KERBEROS_DIR, READY, SPINDLE, forms_of, kinit
from serve_dashboard_test import Browser, wait_for

HTTP_KEYTAB = os.path.join(KERBEROS_DIR, "http.keytab")
USER = READY["user_principal"].split("@")[0]


class ServeKerberos(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="spindle-serve-kerberos-")
        self.caches = {}
        for who, principal, keytab in (("owner", READY["user_principal"], READY["user_keytab"]),
                                       ("alice", "alice@EXAMPLE.COM", os.path.join(KERBEROS_DIR, "alice.keytab")),
                                       ("trainer", "trainer@EXAMPLE.COM",
                                        os.path.join(KERBEROS_DIR, "trainer.keytab"))):
            self.caches[who] = os.path.join(self.directory, who + ".cc")
            kinit(principal, keytab, self.caches[who])
        self.caches["nobody"] = os.path.join(self.directory, "no-ticket.cc")
        self.server = None

    def tearDown(self):
        if self.server:
            self.server.send_signal(signal.SIGTERM)
            self.server.communicate(timeout=30)
        shutil.rmtree(self.directory, ignore_errors=True)

    def environment(self, who):
        return {**os.environ, "KRB5_CONFIG": READY["krb5_conf"], "KRB5CCNAME": "FILE:" + self.caches[who],
                "SPINDLE_STATE_DIR": os.path.join(self.directory, "state"),
                "SPINDLE_DATA_DIR": os.path.join(self.directory, "data")}

    def serve(self, *extra):
        """The base URL (on localhost, the host of the HTTP principal) and the token."""
        self.server = subprocess.Popen([SPINDLE, "serve", *extra], env=self.environment("owner"),
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        printed = self.server.stdout.readline().strip()
        self.assertIn("/?token=", printed, self.server.stderr.read() if not printed else printed)
        base, token = printed.split("/?token=")
        return base.replace("127.0.0.1", "localhost"), token

    def curl(self, who, url, *options):
        """(status, headers in lower case, body) of one request through curl."""
        headers = os.path.join(self.directory, "headers")
        shown = subprocess.run(["curl", "-s", "-D", headers, "-H", "Accept: application/json", *options, url],
                               env=self.environment(who), capture_output=True, text=True, timeout=60)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        with open(headers) as lines:
            head = [line.strip() for line in lines if line.strip()]
        # With --negotiate the first answer is the 401 challenge; the last one counts.
        last = max(i for i, line in enumerate(head) if line.startswith("HTTP/"))
        fields = {}
        for line in head[last + 1:]:
            name, _, value = line.partition(":")
            fields.setdefault(name.strip().lower(), []).append(value.strip())
        return int(head[last].split()[1]), fields, shown.stdout

    def test_a_ticket_signs_in_with_a_cookie_and_nobody_else_gets_in(self):
        base, token = self.serve("--keytab", HTTP_KEYTAB)
        session = base + "/api/v1/session"

        status, fields, body = self.curl("nobody", session)
        self.assertEqual(status, 401, body)
        self.assertEqual(fields.get("www-authenticate"), ["Negotiate"])
        self.assertIn("kinit", json.loads(body)["error"])

        status, fields, body = self.curl("owner", session, "--negotiate", "-u", ":")
        self.assertEqual(status, 200, body)
        self.assertEqual(json.loads(body)["user"], USER)
        cookie = [c for c in fields.get("set-cookie", []) if c.startswith("spindle_login=")]
        self.assertEqual(len(cookie), 1, fields)
        self.assertIn("HttpOnly", cookie[0])
        self.assertIn("SameSite=Strict", cookie[0])
        login = cookie[0].split(";")[0]

        # The cookie alone, with no ticket at all, serves the next requests.
        status, _, body = self.curl("nobody", base + "/api/v1/jobs", "-H", "Cookie: " + login)
        self.assertEqual(status, 200, body)
        self.assertIn("jobs", json.loads(body))
        forged = login[:-4] + ("0000" if not login.endswith("0000") else "1111")
        status, fields, _ = self.curl("nobody", base + "/api/v1/jobs", "-H", "Cookie: " + forged)
        self.assertEqual(status, 401)
        self.assertEqual(fields.get("www-authenticate"), ["Negotiate"])

        # Another user of the cluster, with a good ticket of their own: refused, never served as the owner.
        status, fields, body = self.curl("alice", session, "--negotiate", "-u", ":")
        self.assertEqual(status, 403, body)
        self.assertEqual(json.loads(body)["error"],
                         "You signed in with Kerberos as alice@EXAMPLE.COM, but this server acts for %s alone, "
                         "with %s's own ticket, and never for anyone else; run spindle serve as yourself to "
                         "reach your jobs." % (USER, USER))
        self.assertNotIn("set-cookie", fields)

        # The token still works beside the logins.
        status, _, body = self.curl("nobody", session, "-H", "Authorization: Bearer " + token)
        self.assertEqual(status, 200, body)

    def test_the_dashboard_opens_in_chromium_with_a_ticket_and_no_token(self):
        base, _ = self.serve("--keytab", HTTP_KEYTAB)
        # chromedriver, and the browser it starts, inherit the ticket cache and krb5.conf.
        saved = {name: os.environ.get(name) for name in ("KRB5CCNAME", "KRB5_CONFIG")}
        os.environ.update(KRB5CCNAME="FILE:" + self.caches["owner"], KRB5_CONFIG=READY["krb5_conf"])
        try:
            browser = Browser(args=["--auth-server-allowlist=localhost"])
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        try:
            # Chromium turns down the first Negotiate challenge after it starts (it loads its GSS-API
            # library on that first use), so the page is opened a second time if the first shows the 401.
            browser.open(base + "/")
            if browser.run("return document.title") == "401 Unauthorized":
                browser.open(base + "/")
            wait_for("the jobs page signed in with Kerberos",
                     lambda: browser.run("return document.body.dataset.ready") == "jobs", 60)
            wait_for("the user in the header", lambda: browser.run(
                "return document.getElementById('user').textContent") == "acting as " + USER, 30)
            cookies = browser.session_call("GET", "/cookie")
            self.assertEqual([c["name"] for c in cookies], ["spindle_login"])
            self.assertTrue(cookies[0]["httpOnly"])
            browser.screenshot("kerberos-jobs")
        finally:
            browser.close()

        # A browser that may not sign in to this host sees the sentence that says what to do.
        plain = Browser()
        try:
            plain.open(base + "/")
            text = plain.run("return document.body.innerText")
            self.assertIn("needs a Kerberos login or its access token", text)
        finally:
            plain.close()

    def test_a_principal_the_rules_map_to_the_user_is_that_user_everywhere(self):
        """trainer@EXAMPLE.COM is mapped to the cluster's user by a rule of hadoop.security.auth_to_local
        (tests/yarn-cluster): it submits as that user, stages in that user's home, reaches its job's
        TensorBoard through `spindle tensorboard`, and signs in to a server that acts for that user."""
        trainer = {**self.environment("trainer"), "SPINDLE_STATE_DIR": os.path.join(self.directory, "trainer-state")}
        spec = os.path.join(self.directory, "mapped.json")
        with open(spec, "w") as out:
            json.dump({"name": "mapped-principal", "output": os.path.join(self.directory, "mapped-output"),
                       "tasks": {"worker": {"command": "sleep 180"}, "tensorboard": {"memory": "1 GiB"}}}, out)
        submitted = subprocess.run([SPINDLE, "submit", "--json", spec], env=trainer, capture_output=True, text=True,
                                   timeout=300)
        self.assertEqual(submitted.returncode, 0, submitted.stderr)
        answer = json.loads(submitted.stdout)
        application = answer["application_id"]
        proxy = None
        try:
            self.assertTrue(answer["staging"].endswith(f"/user/{USER}/.spindle/{application}"), answer)

            base, _ = self.serve("--keytab", HTTP_KEYTAB)
            status, fields, body = self.curl("trainer", base + "/api/v1/session", "--negotiate", "-u", ":")
            self.assertEqual(status, 200, body)
            self.assertEqual(json.loads(body)["user"], USER)
            login = [c for c in fields.get("set-cookie", []) if c.startswith("spindle_login=")][0].split(";")[0]
            status, _, body = self.curl("nobody", base + "/api/v1/jobs/" + application, "-H", "Cookie: " + login)
            self.assertEqual(status, 200, body)
            self.assertEqual(json.loads(body)["job"]["user"], USER)

            proxy = subprocess.Popen([SPINDLE, "tensorboard", application], env=trainer, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
            url = proxy.stdout.readline().strip()
            self.assertTrue(url.startswith("http://"), proxy.stderr.read() if not url else url)

            def tensorboard_answers():
                shown = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", url],
                                       capture_output=True, text=True, timeout=60)
                return shown.stdout == "200"

            wait_for("the job's TensorBoard through spindle tensorboard", tensorboard_answers, 180)
        finally:
            if proxy:
                proxy.terminate()
                proxy.wait(timeout=30)
            subprocess.run([SPINDLE, "kill", application], env=trainer, capture_output=True, timeout=120)

    def test_a_keytab_sent_from_the_page_reaches_the_jobs_master_alone_and_another_users_is_refused(self):
        """The submit page's Kerberos login: a keytab chosen in Chromium goes with the submit, the server keeps
        it only until the job is staged, the job's master logs in from it; a principal that is another user is
        refused over the API, saying who the server acts for."""
        base, token = self.serve()
        api = base + "/api/v1/submit"
        spec = "name: keytab-from-the-page\nframework: generic\ntasks:\n  worker:\n    memory: 256 MiB\n" \
               "    command: sleep 120\n"
        with open(os.path.join(KERBEROS_DIR, "alice.keytab"), "rb") as keytab:
            alice = base64.b64encode(keytab.read()).decode()
        envelope = os.path.join(self.directory, "envelope.json")
        with open(envelope, "w") as out:
            json.dump({"spec": spec, "keytab": {"principal": "alice@EXAMPLE.COM", "content": alice}}, out)
        status, _, body = self.curl("nobody", api, "-H", "Authorization: Bearer " + token, "-H",
                                    "X-Spindle-Request: 1", "-H", "Content-Type: application/json",
                                    "--data-binary", "@" + envelope)
        self.assertEqual(status, 403, body)
        self.assertEqual(json.loads(body)["error"],
                         f"The keytab's principal alice@EXAMPLE.COM is the user alice on this cluster, but this "
                         f"server acts for {USER}; send the keytab of a principal that is {USER}.")

        # trainer@EXAMPLE.COM is the server's user under the cluster's auth_to_local rules.
        trainer_keytab = os.path.join(KERBEROS_DIR, "trainer.keytab")
        browser = Browser()
        try:
            browser.open(f"{base}/?token={token}")
            browser.open(base + "/#/submit")
            wait_for("the submit page", lambda: browser.run("return document.body.dataset.ready") == "submit", 60)
            browser.run("const box = document.getElementById('spec-text'); box.value = arguments[0];"
                        "box.dispatchEvent(new Event('input'))", spec)
            browser.run("document.getElementById('kerberos-login').open = true;"
                        "document.getElementById('keytab-principal').value = 'trainer@EXAMPLE.COM'")
            browser.choose_file("#keytab-file", trainer_keytab)
            browser.both_themes("submit-keytab")
            application = browser.submit_for_job(180)
        finally:
            browser.close()
        try:
            # The server's copy went once the job was staged.
            self.assertEqual([name for name in os.listdir(tempfile.gettempdir())
                              if name.startswith("spindle-serve-keytab-")], [])
            # The master logs in from the keytab, localized in its container and no other.
            def master_logged_in():
                said = ""
                for path in glob.glob(os.path.join(CLUSTER, "data", "**", application, "container_*_000001",
                                                   "stderr"), recursive=True):
                    with open(path, errors="replace") as log:
                        said += log.read()
                return "renewed from its keytab" in said

            wait_for("the master's keytab login", master_logged_in, 180, 1)
            # Localized once for the application (filecache), linked into the master's container only.
            keytabs = [path for path in glob.glob(os.path.join(CLUSTER, "data", "**", application, "**",
                                                               "spindle.keytab"), recursive=True)
                       if "/container_" in path]
            self.assertTrue(keytabs, "the master's keytab was not found in its container")
            for path in keytabs:
                self.assertRegex(path, r"container_(?:e\d+_)?\d+_\d+_\d+_0*1/", "a task container holds it")
        finally:
            subprocess.run([SPINDLE, "kill", application], env=self.environment("owner"), capture_output=True,
                           timeout=120)
        self.server.send_signal(signal.SIGTERM)
        out, err = self.server.communicate(timeout=30)
        self.server = None
        with open(trainer_keytab, "rb") as keytab:
            for form in forms_of(keytab.read()):
                self.assertNotIn(form, (out + err).encode(), "the keytab shows in what the server said")

    def test_a_keytab_that_cannot_serve_is_refused_at_start(self):
        cases = (
            (["--keytab", os.path.join(self.directory, "missing.keytab")],
             "cannot take Kerberos logins: the keytab %s cannot be read" % os.path.join(self.directory,
                                                                                      "missing.keytab")),
            (["--principal", "HTTP/localhost@EXAMPLE.COM"], "give the keytab that holds it with --keytab"),
            (["--keytab", HTTP_KEYTAB, "--principal", "HTTP/elsewhere.example.com@EXAMPLE.COM"],
             "holds no key to accept logins as HTTP/elsewhere.example.com@EXAMPLE.COM"),
        )
        for options, sentence in cases:
            with self.subTest(options=options):
                shown = subprocess.run([SPINDLE, "serve", *options], env=self.environment("owner"),
                                       capture_output=True, text=True, timeout=60)
                self.assertEqual(shown.returncode, 2, shown.stdout + shown.stderr)
                self.assertIn(sentence, shown.stderr)
                self.assertEqual(shown.stdout, "")


if __name__ == "__main__":
    unittest.main()
