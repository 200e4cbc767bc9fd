"""Behind its access token every page, file and event stream of the dashboard asks for it: a browser is
sent to the login page, which sets a cookie once the token is right; a script sends a bearer header."""
import re
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from tornado.testing import AsyncHTTPTestCase

from fournines.ui import server
from synthetic import write_run

TOKEN = "0123456789abcdef0123456789abcdef"
RUN = "20260101T000200Z-q0"


class AccessTokenTest(AsyncHTTPTestCase):
    def get_app(self):
        self.root = Path(tempfile.mkdtemp(prefix="fournines-ui-token-"))
        write_run(self.root / RUN, seed=1)
        return server.make_app(self.root, access_token=TOKEN)

    def test_every_route_sends_a_browser_without_the_token_to_the_login_page(self):
        for path in ("/", f"/runs/{RUN}", f"/live/{RUN}/events", "/static/dashboard.js", "/plotly.min.js", "/nowhere"):
            response = self.fetch(path, follow_redirects=False)
            assert response.code == 302, path
            assert response.headers["Location"].startswith("/login?next="), path

    def test_a_post_without_the_token_is_refused(self):
        assert self.fetch("/start", method="POST", body="scenario=q0", follow_redirects=False).code in (401, 403)

    def test_a_bearer_header_with_the_token_is_served(self):
        assert self.fetch("/", headers={"Authorization": f"Bearer {TOKEN}"}).code == 200
        assert self.fetch("/", headers={"Authorization": "Bearer " + "x" * 32}, follow_redirects=False).code == 302

    def test_the_login_page_sets_the_cookie_for_the_right_token_only(self):
        form = self.fetch("/login?next=%2Fruns%2F" + RUN)
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.body.decode()).group(1)
        cookie = form.headers["Set-Cookie"].split(";")[0]

        def login(token):
            return self.fetch("/login", method="POST", follow_redirects=False, headers={"Cookie": cookie},
                              body=urlencode({"_xsrf": xsrf, "token": token, "next": f"/runs/{RUN}"}))
        wrong = login("x" * 32)
        assert wrong.code == 401 and "That is not the token this dashboard was started with." in wrong.body.decode()
        right = login(TOKEN)
        assert right.code == 302 and right.headers["Location"] == f"/runs/{RUN}"
        session = right.headers["Set-Cookie"]
        assert "HttpOnly" in session and "SameSite=Strict" in session
        assert self.fetch("/", headers={"Cookie": session.split(";")[0]}).code == 200

    def test_the_login_page_never_sends_the_reader_off_this_server(self):
        form = self.fetch("/login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.body.decode()).group(1)
        response = self.fetch("/login", method="POST", follow_redirects=False,
                              headers={"Cookie": form.headers["Set-Cookie"].split(";")[0]},
                              body=urlencode({"_xsrf": xsrf, "token": TOKEN, "next": "//evil.example/"}))
        assert response.headers["Location"] == "/"
