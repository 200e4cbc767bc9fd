"""The dashboard behind its access token (access_token.py), when it has one: every handler is
Guarded, and a request without the token is sent to the login page (a GET) or refused (401); the
login page takes the token once and keeps it in a cookie. Without a token (loopback) nothing is asked."""
import html
import sys
from urllib.parse import quote

import tornado.web

from fournines.ui.access_token import COOKIE, presented
from fournines_analysis.dashboard.layout import page


class Guarded(tornado.web.RequestHandler):
    def prepare(self):
        token = self.settings.get("access_token")
        if token is None or presented(token, self.request.headers.get("Authorization"), self.get_cookie(COOKIE)):
            return
        if self.request.method == "GET":
            self.redirect("/login?next=" + quote(self.request.uri, safe=""))
        else:
            raise tornado.web.HTTPError(401)


class LoginHandler(tornado.web.RequestHandler):
    def prepare(self):
        if self.settings.get("access_token") is None:
            self.redirect("/")  # nothing to log in to

    def get(self):
        self.finish(self._form(self.get_query_argument("next", "/"), None))

    def post(self):
        target = self.get_body_argument("next", "/")
        if not presented(self.settings["access_token"], None, self.get_body_argument("token", "")):
            print(f"fournines dashboard: a wrong token from {self.request.remote_ip}", file=sys.stderr)
            self.set_status(401)
            self.finish(self._form(target, "That is not the token this dashboard was started with."))
            return
        self.set_cookie(COOKIE, self.get_body_argument("token"), httponly=True, samesite="Strict")
        # Only a path on this server: the form must not send the reader elsewhere.
        self.redirect(target if target.startswith("/") and not target.startswith("//") else "/")

    def _form(self, target: str, problem: str | None) -> str:
        alert = f'<div class="alert problem"><p>{html.escape(problem)}</p></div>' if problem else ""
        return page("Log in", f"""<h1>The dashboard's access token</h1>{alert}
<p>This dashboard listens beyond loopback: give the token in the file it was started with (<code>--token-file</code>).</p>
<form method="post" action="/login">{self.xsrf_form_html()}<input type="hidden" name="next" value="{html.escape(target)}">
<label>token <input id="token" name="token" type="password" autocomplete="current-password"></label>
<button id="login" type="submit">Log in</button></form>""", plots=False)
