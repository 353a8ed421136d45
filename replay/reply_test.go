package replay_test

import (
	"errors"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"net/http"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
)

func TestSession_Replies(t *testing.T) {
	dir := t.TempDir()
	fileBody := "{\n  \"status\":   \"ready\"\n}\n"
	testfile.Write(t, dir, "fixtures/order.json", fileBody)
	for _, v := range variants(t) {
		t.Run(v.name, func(t *testing.T) {
			fixtures := strings.ReplaceAll(`[
			  {"expect_request": {"method": "GET", "url": "S://shop.example/orders/42"},
			   "respond_with": {"status": 202, "headers": {"x-trace": "t1"}, "body_file": "fixtures/order.json"}},
			  {"expect_request": {"method": "GET", "url": "S://shop.example/null"},
			   "respond_with": {"status": 404, "json": null}},
			  {"expect_request": {"method": "HEAD", "url": "S://shop.example/orders/42"},
			   "respond_with": {"json": {"ignored": true}}}]`, "S://", v.scheme+"://")
			s := MustLoad(t, fixtures, dir).NewSession()
			c := v.start(s)
			base := v.scheme + "://shop.example"
			file := do(c, v, call{method: "GET", url: base + "/orders/42"})
			null := do(c, v, call{method: "GET", url: base + "/null"})
			head := do(c, v, call{method: "HEAD", url: base + "/orders/42"})
			for _, r := range []result{file, null, head} {
				if r.err != nil {
					t.Fatalf("request failed: %v", r.err)
				}
			}
			if got, want := file.body, fileBody; got != want {
				t.Errorf("file body = %q, want the exact file bytes %q", got, want)
			}
			if got, want := file.status, 202; got != want {
				t.Errorf("status = %d, want %d", got, want)
			}
			if got, want := file.header.Get("X-Trace"), "t1"; got != want {
				t.Errorf("X-Trace = %q, want %q", got, want)
			}
			if got := file.header.Values("Content-Type"); len(got) != 0 {
				t.Errorf("Content-Type = %q, want none (not declared)", got)
			}
			if got, want := null.body, "null"; got != want || null.status != 404 {
				t.Errorf("null reply = %d %q, want 404 %q", null.status, got, want)
			}
			if head.body != "" || head.status != 200 {
				t.Errorf("HEAD reply = %d %q, want 200 and no body", head.status, head.body)
			}
			if ev, err := s.Finish(); err != nil || !ev.Passed {
				t.Errorf("Finish = %v, want success", err)
			}
		})
	}
}

// TestSession_RescuedErrorStillFails: an agent that swallows replay's
// error and answers anyway still fails the case.
func TestSession_RescuedErrorStillFails(t *testing.T) {
	s := MustLoad(t, `[{"expect_request": {"method": "GET", "url": "https://shop.example/orders", "query": {"id": "42"}},
	                    "respond_with": {"json": {"status": "ready"}}}]`, t.TempDir()).NewSession()
	a := func(c *http.Client) string {
		resp, err := c.Get("https://shop.example/orders?id=43")
		if err != nil {
			return "ready" // rescued: guesses the right answer
		}
		resp.Body.Close()
		return "?"
	}
	if got := a(s.Client(nil)); got != "ready" {
		t.Fatalf("agent answered %q", got)
	}
	ev, err := s.Finish()
	var f *replay.Failure
	if !errors.As(err, &f) {
		t.Fatalf("Finish = %v, want a *Failure", err)
	}
	if f.Mismatched != 1 || f.Missing != 1 {
		t.Errorf("Failure = %+v, want 1 mismatched and 1 missing", f)
	}
	if got, want := ev.Observed[0].Differences, []string{`query id: want ["42"], got ["43"]`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Differences = %q, want %q", got, want)
	}
	if len(ev.Missing) != 1 || ev.Missing[0].URL != "https://shop.example/orders" {
		t.Errorf("Missing = %+v, want the declared orders request", ev.Missing)
	}

	// After Finish: same verdict, later requests refused and not recorded.
	_, err = s.Client(nil).Get("https://shop.example/orders?id=42")
	if !errors.Is(err, replay.ErrFinished) {
		t.Errorf("request after Finish: %v, want ErrFinished", err)
	}
	ev2, err2 := s.Finish()
	if err2 == nil || len(ev2.Observed) != 1 {
		t.Errorf("second Finish = %v with %d observed, want the same failure and 1 observed", err2, len(ev2.Observed))
	}
}

func TestSession_DifferencesAreReadable(t *testing.T) {
	s := MustLoad(t, `[{"expect_request": {"method": "POST", "url": "https://shop.example/labels",
	   "json": {"order": 42, "express": false, "items": [{"sku": "a"}]}, "headers": {"X-Region": "eu"}},
	   "respond_with": {"json": {}}}]`, t.TempDir()).NewSession()
	resp, err := s.Client(nil).Post("https://shop.example/labels", "application/json",
		strings.NewReader(`{"order": "42", "express": null, "items": [{"sku": "a"}, {"sku": "b"}], "extra": 1}`))
	if err == nil {
		resp.Body.Close()
		t.Fatal("mismatched request was answered")
	}
	ev, _ := s.Finish()
	got := strings.Join(ev.Observed[0].Differences, "\n")
	for _, want := range []string{
		`header X-Region: want "eu", got none`,
		`body.express: want boolean false, got null null`,
		`body.order: want number 42, got string "42"`,
		`body.items: want 1 items, got 2`,
		`body.extra: unexpected key with 1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("differences lack %q:\n%s", want, got)
		}
	}
}
