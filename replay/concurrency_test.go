package replay_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
)

// TestSession_Concurrent runs 100 cases at once, each with its own session
// (and, through the proxy, its own proxy over HTTPS), and checks each
// case's evidence holds only its own requests.
func TestSession_Concurrent(t *testing.T) {
	const cases = 100
	ca := MustCA(t)
	dir := t.TempDir()
	fixture := func(i int) *replay.Fixtures {
		return MustLoad(t, fmt.Sprintf(`[
		  {"expect_request": {"method": "GET", "url": "https://shop.example/orders", "query": {"id": "%d"}},
		   "respond_with": {"json": {"order": %d}}},
		  {"expect_request": {"method": "POST", "url": "https://shop.example/labels", "json": {"order": %d}},
		   "respond_with": {"json": {"label": "L-%d"}}}]`, i, i, i, i), dir)
	}
	for _, mode := range []string{"roundtripper", "proxy"} {
		t.Run(mode, func(t *testing.T) {
			var wg sync.WaitGroup
			evidence := make([]*replay.Evidence, cases)
			errs := make([]error, cases)
			answers := make([]string, cases)
			for i := 0; i < cases; i++ {
				s := fixture(i).NewSession()
				client := s.Client(nil)
				if mode == "proxy" {
					p := MustProxy(t, ca, nil)
					p.Arm(s)
					client = proxyClient(p, ca)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					answers[i] = twoCalls(client, i)
					evidence[i], errs[i] = s.Finish()
				}()
			}
			wg.Wait()
			for i := 0; i < cases; i++ {
				if errs[i] != nil {
					t.Errorf("case %d: %v", i, errs[i])
					continue
				}
				if got, want := answers[i], fmt.Sprintf("L-%d", i); got != want {
					t.Errorf("case %d answered %q, want %q", i, got, want)
				}
				b, _ := json.Marshal(evidence[i].Observed)
				if got := len(evidence[i].Observed); got != 2 {
					t.Errorf("case %d observed %d requests, want 2: %s", i, got, b)
				}
				for _, o := range evidence[i].Observed {
					own := (o.Query != nil && o.Query["id"][0] == fmt.Sprint(i)) || string(o.JSON) == fmt.Sprintf(`{"order":%d}`, i)
					if !own {
						t.Errorf("case %d evidence shows a request that is not its own: %s", i, b)
					}
				}
			}
		})
	}
}

// twoCalls is a small agent: look the order up, then create its label.
func twoCalls(c *http.Client, i int) string {
	resp, err := c.Get(fmt.Sprintf("https://shop.example/orders?id=%d", i))
	if err != nil {
		return err.Error()
	}
	var order struct{ Order int }
	err = json.NewDecoder(resp.Body).Decode(&order)
	resp.Body.Close()
	if err != nil {
		return err.Error()
	}
	resp, err = c.Post("https://shop.example/labels", "application/json", strings.NewReader(fmt.Sprintf(`{"order": %d}`, order.Order)))
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var label struct{ Label string }
	if err := json.Unmarshal(b, &label); err != nil {
		return string(b)
	}
	return label.Label
}
