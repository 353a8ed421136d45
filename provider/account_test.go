package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
)

// redirect sends every request to a local server, so a judge on the
// provider's own endpoint (whose price is known) can be tested offline.
type redirect struct{ to *url.URL }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.to.Scheme, r.to.Host
	req.Host = r.to.Host
	return http.DefaultTransport.RoundTrip(req)
}

// TestLLMJudge_CallAccount: every call is accounted, in the ctx recorder
// and in the totals alike: verdicts, failed calls (with the usage the
// provider reported), retries and cache hits; the cost is known only when
// the price is, also after a failure, and a cache hit costs 0.
func TestLLMJudge_CallAccount(t *testing.T) {
	ok := step{status: 200, content: `{"reason":"Fine.","score":0.8}`}
	fail := errorBody(llm.ProviderOpenAI, 500, "internal failure")
	priced := func(in, out int64) *float64 {
		c := (float64(in)*0.15 + float64(out)*0.60) / 1e6 // gpt-4o-mini
		return &c
	}
	zero := 0.0
	for _, tc := range []struct {
		name   string
		steps  []step
		price  bool // the provider's own endpoint with a listed model
		cached bool // ask twice with a cache: the second is a hit
		want   models.CallAccount
	}{
		{"verdict, unknown price", []step{ok}, false, false, models.CallAccount{Calls: 1, Attempts: 1, InputTokens: 120, OutputTokens: 30}},
		{"verdict, listed price", []step{ok}, true, false, models.CallAccount{Calls: 1, Attempts: 1, InputTokens: 120, OutputTokens: 30, Cost: priced(120, 30)}},
		{"persistent 500, unknown price", []step{fail}, false, false, models.CallAccount{Calls: 1, Errors: 1, Attempts: 3}},
		{"persistent 500, listed price", []step{fail}, true, false, models.CallAccount{Calls: 1, Errors: 1, Attempts: 3, Cost: &zero}},
		{"invalid reply is billed", []step{{status: 200, content: "looks fine"}}, true, false,
			models.CallAccount{Calls: 1, Errors: 1, Attempts: 1, InputTokens: 120, OutputTokens: 30, Cost: priced(120, 30)}},
		{"500 then verdict", []step{fail, ok}, false, false, models.CallAccount{Calls: 1, Attempts: 2, InputTokens: 120, OutputTokens: 30}},
		{"cache hit", []step{ok}, true, true, models.CallAccount{Calls: 1, Attempts: 1, Cached: 1, InputTokens: 120, OutputTokens: 30, Cost: priced(120, 30)}},
		{"cache hit, unknown price", []step{ok}, false, true, models.CallAccount{Calls: 1, Attempts: 1, Cached: 1, InputTokens: 120, OutputTokens: 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newScripted(t, llm.ProviderOpenAI, tc.steps...)
			s, o := srv.settings(), testOptions()
			if tc.price {
				u, _ := url.Parse(srv.srv.URL)
				s.BaseURL, s.Model = "", "gpt-4o-mini"
				o.HTTPClient = &http.Client{Transport: redirect{to: u}}
			}
			var cache *Cache
			if tc.cached {
				var err error
				if cache, err = OpenCache(t.TempDir()); err != nil {
					t.Fatal(err)
				}
			}
			j, err := NewJudge(s, o, cache)
			if err != nil {
				t.Fatal(err)
			}
			var rec models.UsageRecorder
			ctx := models.WithUsageRecorder(context.Background(), &rec)
			_, _ = j.Assess(ctx, "s", "u")
			if tc.cached {
				var hit models.UsageRecorder
				a, err := j.Assess(models.WithUsageRecorder(context.Background(), &hit), "s", "u")
				got, _ := hit.Account()
				if err != nil || a.Details["judge_cache"] != "hit" || !sameAccount(got, models.CallAccount{Cached: 1, Cost: &zero}) {
					t.Errorf("cache hit = %+v (%v), account %+v, want 1 cached at cost 0", a, err, got)
				}
				rec.Add(got)
			}
			got, _ := rec.Account()
			if !sameAccount(got, tc.want) {
				t.Errorf("account = %s, want %s", show(got), show(tc.want))
			}
			if tot := j.Totals(); !sameAccount(tot.CallAccount, tc.want) {
				t.Errorf("totals = %s, want %s (the same account)", show(tot.CallAccount), show(tc.want))
			}
		})
	}
}

func TestCallAccount_Add(t *testing.T) {
	one, two := 1.0, 2.0
	known := models.CallAccount{Calls: 1, InputTokens: 10, Cost: &one}
	if got := known.Add(models.CallAccount{Calls: 1, Errors: 1, Cost: &two}); got.Calls != 2 || got.Errors != 1 || got.Cost == nil || *got.Cost != 3 {
		t.Errorf("known + known = %s", show(got))
	}
	if got := known.Add(models.CallAccount{Calls: 1}); got.Cost != nil || got.Calls != 2 {
		t.Errorf("known + unknown = %s, want unknown cost", show(got))
	}
	if got := (models.CallAccount{}).Add(known); !sameAccount(got, known) || got.Cost == known.Cost {
		t.Errorf("empty + known = %s, want a copy of known", show(got))
	}
}

func sameAccount(a, b models.CallAccount) bool {
	if (a.Cost == nil) != (b.Cost == nil) || (a.Cost != nil && *a.Cost != *b.Cost) {
		return false
	}
	a.Cost, b.Cost = nil, nil
	return a == b
}

func show(a models.CallAccount) string {
	cost := "null"
	if a.Cost != nil {
		cost = fmtFloat(*a.Cost)
	}
	a.Cost = nil
	return fmtAccount(a) + " cost " + cost
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func fmtAccount(a models.CallAccount) string { return fmt.Sprintf("%+v", a) }
