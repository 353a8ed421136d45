package money

import (
	"sync"
	"testing"
)

func TestNewMeter(t *testing.T) {
	for _, tc := range []struct {
		limit Decimal
		ok    bool
	}{
		{"2.50", true}, {"0.0001", true}, {"1e-3", true},
		{"0", false}, {"-1", false}, {"two", false}, {"", false}, {"1/2", false}, {"$2", false},
	} {
		_, err := NewMeter(tc.limit)
		if (err == nil) != tc.ok {
			t.Errorf("NewMeter(%q) error %v; want ok %v", tc.limit, err, tc.ok)
		}
	}
}

func TestMeter_AllowsUntilTheLimit(t *testing.T) {
	m, err := NewMeter("0.3")
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		add   Decimal
		allow bool
	}{
		{"0.1", true}, {"0.1", true}, {"0.0999", true}, {"0.0001", false}, {"0", false},
	}
	for i, s := range steps {
		m.Add(s.add)
		if got := m.Allow(); got != s.allow {
			t.Fatalf("step %d: after adding %s Allow = %v; want %v (spent %s)", i, s.add, got, s.allow, m.Read().Spent)
		}
	}
	r := m.Read()
	if r.Spent != "0.3" || !r.Reached || r.Refused != 2 || r.Limit != "0.3" {
		t.Errorf("reading %+v; want spent 0.3 (exactly, no float drift), reached, 2 refused", r)
	}
}

// TestMeter_Concurrent: many callers that each ask, spend and ask again
// never see the meter allow a call once the exact total reached the
// limit, and every cost is counted.
func TestMeter_Concurrent(t *testing.T) {
	m, err := NewMeter("1")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if m.Allow() {
					mu.Lock()
					allowed++
					mu.Unlock()
					m.Add("0.01")
				}
			}
		}()
	}
	wg.Wait()
	// 100 calls reach the limit; at most the 7 others in flight pass it.
	if allowed < 100 || allowed > 107 {
		t.Errorf("allowed %d calls of 0.01 under a limit of 1; want 100 to 107", allowed)
	}
	if r := m.Read(); !r.Reached || r.Spent.Rat().Cmp(DecimalOf(float64(allowed)/100).Rat()) != 0 {
		t.Errorf("reading %+v after %d calls", r, allowed)
	}
}
