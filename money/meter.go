package money

import (
	"fmt"
	"math/big"
	"sync"
)

// Meter counts what calls cost against a limit. Once the spending reaches
// the limit it allows nothing more; a call already allowed still adds its
// cost, so the total may pass the limit by what was in flight. It is safe
// for concurrent use.
type Meter struct {
	mu      sync.Mutex
	limit   Decimal
	max     *big.Rat
	spent   Decimal
	total   *big.Rat
	refused int
}

// NewMeter starts a meter at zero under limit, which must be a positive
// number.
func NewMeter(limit Decimal) (*Meter, error) {
	_, err := ParseDecimal(string(limit))
	max := limit.Rat()
	if err != nil || max == nil || max.Sign() <= 0 {
		return nil, fmt.Errorf("spend limit %q: want a positive number of USD", string(limit))
	}
	return &Meter{limit: limit, max: max, spent: "0", total: new(big.Rat)}, nil
}

// Allow reports whether the spending is still under the limit; when it is
// not, it counts one refusal.
func (m *Meter) Allow() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.total.Cmp(m.max) < 0 {
		return true
	}
	m.refused++
	return false
}

// Add counts cost spent (a call that was allowed, or made beside the
// meter).
func (m *Meter) Add(cost Decimal) {
	r := cost.Rat()
	if r == nil || r.Sign() <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.total.Add(m.total, r)
	m.spent = m.spent.Add(cost)
}

// Reading is a meter's state.
type Reading struct {
	Limit, Spent Decimal
	// Reached says the spending reached the limit.
	Reached bool
	// Refused counts the calls Allow refused.
	Refused int
}

// Read returns the meter's state.
func (m *Meter) Read() Reading {
	m.mu.Lock()
	defer m.mu.Unlock()
	return Reading{Limit: m.limit, Spent: m.spent, Reached: m.total.Cmp(m.max) >= 0, Refused: m.refused}
}
