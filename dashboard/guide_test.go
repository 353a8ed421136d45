package dashboard

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGuide_MatchesTheServer holds the dashboard guide
// (docs/dashboard.md) to the server: the script-src it quotes is the header's; the
// pages set no cookie, so both proxy recipes keep the application's
// Cookie and Authorization from evaldash; the Rails recipe is valid Ruby.
func TestGuide_MatchesTheServer(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "docs", "dashboard.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(text)
	script := regexp.MustCompile(`script-src [^;"]+`).FindString(contentSecurityPolicy)
	if script != "script-src 'none'" || !strings.Contains(doc, "`"+script+"`") {
		t.Errorf("the header carries %q; the section must quote it and say no script runs", script)
	}
	if strings.Contains(doc, "script-src 'self'") {
		t.Error("the section still quotes script-src 'self'")
	}

	_, ro := MustOpenDBs(t, "sqlite")
	ts := MustServe(t, ro, mount)
	for _, p := range []string{mount + "/", mount + "/assets/style.css"} {
		r := fetch(t, http.MethodGet, ts.URL+p)
		if c := r.Header.Values("Set-Cookie"); len(c) > 0 {
			t.Errorf("%s sets a cookie %q: the recipes' dropping of cookies would break it", p, c)
		}
	}

	blocks := regexp.MustCompile("(?s)~~~(ruby|nginx)\n(.*?)~~~").FindAllStringSubmatch(doc, -1)
	var ruby, nginx string
	for _, b := range blocks {
		if b[1] == "ruby" {
			ruby += b[2]
		} else {
			nginx += b[2]
		}
	}
	for _, want := range []string{`env.delete("HTTP_COOKIE")`, `env.delete("HTTP_AUTHORIZATION")`, "class EvaldashProxy < Rack::Proxy"} {
		if !strings.Contains(ruby, want) {
			t.Errorf("the Rails recipe lacks %s", want)
		}
	}
	for _, want := range []string{`proxy_set_header Cookie "";`, `proxy_set_header Authorization "";`} {
		if !strings.Contains(nginx, want) {
			t.Errorf("the nginx recipe lacks %s", want)
		}
	}
	rubyBin, err := exec.LookPath("ruby")
	if err != nil {
		t.Fatalf("ruby is needed to check the Rails recipe's syntax: apt-get install -y ruby")
	}
	f := filepath.Join(t.TempDir(), "recipe.rb")
	if err := os.WriteFile(f, []byte(ruby), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(rubyBin, "-c", f).CombinedOutput(); err != nil {
		t.Errorf("ruby -c on the Rails recipe: %v\n%s", err, out)
	}
}
