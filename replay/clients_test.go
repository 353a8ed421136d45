package replay_test

import (
	"bytes"
	"context"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/replay"
)

// MustTool finds an external client the tests need; CI installs it from
// Debian (curl, python3). Missing tools fail the test loudly.
func MustTool(tb testing.TB, name string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		tb.Fatalf("%s is needed for this test (Debian package %s): %v", name, name, err)
	}
	return path
}

// runAgent runs an external agent with the proxy's environment.
func runAgent(t *testing.T, p *replay.Proxy, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = p.Env(os.Environ())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if errOut.Len() > 0 {
		t.Logf("%s stderr: %s", name, errOut.String())
	}
	return out.String(), err
}

const pythonAgent = `
import json, sys, urllib.request, urllib.error
base, order = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(base + "/orders?id=" + order + "&fields=status") as r:
    status = json.load(r)["status"]
req = urllib.request.Request(base + "/labels", data=json.dumps({"order": int(order), "express": False}).encode(),
                             headers={"Content-Type": "application/json", "X-Region": "eu"}, method="POST")
try:
    with urllib.request.urlopen(req) as r:
        label = json.load(r)["label"]
except urllib.error.HTTPError as e:
    label = "none (%d)" % e.code
print(status, label)
`

// TestProxy_RealClients drives curl and Python's standard library through
// the proxy over HTTP and HTTPS; they trust the run's CA only through the
// environment.
func TestProxy_RealClients(t *testing.T) {
	curl, python := MustTool(t, "curl"), MustTool(t, "python3")
	dir := t.TempDir()
	testfile.Write(t, dir, "label.json", "{\"label\": \"L-42\"}\n")
	ca := MustCA(t)
	p := MustProxy(t, ca, nil)
	fixtures := func(scheme string) *replay.Fixtures {
		return MustLoad(t, strings.ReplaceAll(`[
		  {"expect_request": {"method": "GET", "url": "S://shipping.example/orders", "query": {"fields": "status", "id": "42"}},
		   "respond_with": {"headers": {"Content-Type": "application/json"}, "json": {"status": "ready"}}},
		  {"expect_request": {"method": "POST", "url": "S://shipping.example/labels", "json": {"order": 42, "express": false}, "headers": {"x-region": "eu"}},
		   "respond_with": {"status": 201, "body_file": "label.json"}}]`, "S://", scheme+"://"), dir)
	}
	for _, scheme := range []string{"http", "https"} {
		base := scheme + "://shipping.example"
		t.Run("curl/"+scheme, func(t *testing.T) {
			s := fixtures(scheme).NewSession()
			p.Arm(s)
			defer p.Arm(nil)
			out, err := runAgent(t, p, curl, "-sS", "--fail", base+"/orders?id=42&fields=status")
			if err != nil {
				t.Fatalf("curl: %v", err)
			}
			if got, want := out, `{"status":"ready"}`; got != want {
				t.Errorf("curl got %q, want %q", got, want)
			}
			out, err = runAgent(t, p, curl, "-sS", "--fail", "-X", "POST", "-H", "Content-Type: application/json", "-H", "X-Region: eu",
				"--data", `{"express": false, "order": 42}`, base+"/labels")
			if err != nil {
				t.Fatalf("curl: %v", err)
			}
			if got, want := out, "{\"label\": \"L-42\"}\n"; got != want {
				t.Errorf("curl got %q, want the file's bytes %q", got, want)
			}
			if ev, err := s.Finish(); err != nil {
				t.Errorf("Finish = %v; observed %+v", err, ev.Observed)
			}
		})
		for _, tc := range []struct {
			name, order, want string
			pass              bool
		}{
			{"right arguments", "42", "ready L-42\n", true},
			{"wrong arguments", "43", "", false},
		} {
			t.Run("python/"+scheme+"/"+tc.name, func(t *testing.T) {
				s := fixtures(scheme).NewSession()
				p.Arm(s)
				defer p.Arm(nil)
				out, err := runAgent(t, p, python, "-c", pythonAgent, base, tc.order)
				if tc.pass && (err != nil || out != tc.want) {
					t.Errorf("python = %q, %v; want %q", out, err, tc.want)
				}
				if !tc.pass && err == nil {
					t.Errorf("python exited 0 (%q), want the replay refusal to surface as an HTTP error", out)
				}
				ev, err := s.Finish()
				if (err == nil) != tc.pass {
					t.Errorf("Finish = %v, want pass = %v; observed %+v", err, tc.pass, ev.Observed)
				}
				if !tc.pass && (len(ev.Observed) == 0 || ev.Observed[0].Status != replay.Mismatched) {
					t.Errorf("observed %+v, want the first request mismatched", ev.Observed)
				}
			})
		}
	}
}

func TestCA_TempDirAndKey(t *testing.T) {
	ca, err := replay.NewCA()
	if err != nil {
		t.Fatal(err)
	}
	pem, err := os.ReadFile(ca.CertFile())
	if err != nil {
		t.Fatalf("read CA certificate: %v", err)
	}
	if !bytes.Contains(pem, []byte("BEGIN CERTIFICATE")) || bytes.Contains(pem, []byte("PRIVATE KEY")) {
		t.Errorf("CA file holds %q, want only the certificate", pem)
	}
	p := MustProxy(t, ca, nil)
	env := strings.Join(p.Env([]string{"HTTPS_PROXY=http://elsewhere", "NO_PROXY=localhost", "KEEP=1"}), "\n")
	for _, want := range []string{"HTTPS_PROXY=" + p.URL(), "https_proxy=" + p.URL(), "HTTP_PROXY=" + p.URL(), "NO_PROXY=\n",
		"SSL_CERT_FILE=" + ca.CertFile(), "REQUESTS_CA_BUNDLE=" + ca.CertFile(), "NODE_EXTRA_CA_CERTS=" + ca.CertFile(),
		"CURL_CA_BUNDLE=" + ca.CertFile(), "KEEP=1"} {
		if !strings.Contains(env+"\n", want) {
			t.Errorf("Env lacks %q:\n%s", want, env)
		}
	}
	if strings.Contains(env, "elsewhere") || strings.Contains(env, "NO_PROXY=localhost") {
		t.Errorf("Env kept an old proxy setting:\n%s", env)
	}
	if err := ca.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ca.CertFile()); !os.IsNotExist(err) {
		t.Errorf("CA file still there after Close: %v", err)
	}
}

// TestProxy_CurlLargeBody: curl sends "Expect: 100-continue" for large
// bodies; the HTTPS interception answers it instead of stalling.
func TestProxy_CurlLargeBody(t *testing.T) {
	curl := MustTool(t, "curl")
	ca := MustCA(t)
	p := MustProxy(t, ca, nil)
	big := `{"blob": "` + strings.Repeat("x", 200_000) + `"}`
	dir := t.TempDir()
	testfile.Write(t, dir, "big.json", big)
	s := MustLoad(t, `[{"expect_request": {"method": "POST", "url": "https://bulk.example/upload", "json": `+big+`},
	                    "respond_with": {"json": {"stored": true}}}]`, dir).NewSession()
	p.Arm(s)
	start := time.Now()
	out, err := runAgent(t, p, curl, "-sS", "--fail", "-H", "Content-Type: application/json", "--data-binary", "@"+filepath.Join(dir, "big.json"), "https://bulk.example/upload")
	if err != nil || out != `{"stored":true}` {
		t.Fatalf("curl = %q, %v", out, err)
	}
	if _, err := s.Finish(); err != nil {
		t.Error(err)
	}
	if d := time.Since(start); d > 900*time.Millisecond {
		t.Logf("large upload took %s (curl waits 1s when 100-continue is not answered)", d)
	}
}
