package prices

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// provider is one provider of the catalog, in the catalog's own shape.
type provider struct {
	ID         string   `json:"id"`
	APIPattern string   `json:"api_pattern"`
	Fallback   []string `json:"fallback_model_providers"`
	Models     []model  `json:"models"`
	api        *regexp.Regexp
}

type model struct {
	ID     string      `json:"id"`
	Match  clause      `json:"match"`
	Prices modelPrices `json:"prices"`
}

func (p provider) find(name string, at time.Time) (Price, bool) {
	for _, m := range p.Models {
		if m.Match.matches(name) {
			return m.Prices.at(at)
		}
	}
	return Price{}, false
}

// clause is the catalog's model-name matcher: one of equals, starts_with,
// ends_with, contains, regex, or a list under or / and. Text comparisons
// ignore case, as the catalog's own readers do.
type clause struct {
	Equals     *string  `json:"equals"`
	StartsWith *string  `json:"starts_with"`
	EndsWith   *string  `json:"ends_with"`
	Contains   *string  `json:"contains"`
	Regex      *string  `json:"regex"`
	Or         []clause `json:"or"`
	And        []clause `json:"and"`
	re         *regexp.Regexp
}

func (c *clause) compile() error {
	if c.Regex != nil {
		re, err := regexp.Compile(*c.Regex)
		if err != nil {
			return fmt.Errorf("match regex: %w", err)
		}
		c.re = re
	}
	for i := range c.Or {
		if err := c.Or[i].compile(); err != nil {
			return err
		}
	}
	for i := range c.And {
		if err := c.And[i].compile(); err != nil {
			return err
		}
	}
	if c.Equals == nil && c.StartsWith == nil && c.EndsWith == nil && c.Contains == nil && c.Regex == nil && c.Or == nil && c.And == nil {
		return errors.New("match: no clause")
	}
	return nil
}

// matches reports whether name (already lower case) matches.
func (c clause) matches(name string) bool {
	switch {
	case c.Equals != nil:
		return name == strings.ToLower(*c.Equals)
	case c.StartsWith != nil:
		return strings.HasPrefix(name, strings.ToLower(*c.StartsWith))
	case c.EndsWith != nil:
		return strings.HasSuffix(name, strings.ToLower(*c.EndsWith))
	case c.Contains != nil:
		return strings.Contains(name, strings.ToLower(*c.Contains))
	case c.re != nil:
		return c.re.MatchString(name)
	case c.Or != nil:
		for _, o := range c.Or {
			if o.matches(name) {
				return true
			}
		}
		return false
	case c.And != nil:
		for _, a := range c.And {
			if !a.matches(name) {
				return false
			}
		}
		return true
	}
	return false
}

// modelPrices is either one set of prices or a list of prices with
// constraints, of which the last one in force applies.
type modelPrices struct {
	fixed       *rawPrice
	conditional []conditionalPrice
}

type conditionalPrice struct {
	Constraint *constraint `json:"constraint"`
	Prices     rawPrice    `json:"prices"`
}

// constraint puts a price in force from a date on, or during a time of
// day (UTC, HH:MM:SSZ).
type constraint struct {
	StartDate string `json:"start_date"`
	StartTime string `json:"start_time"`
	EndTime   string `json:"end_time"`
}

func (m *modelPrices) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '[' {
		return json.Unmarshal(b, &m.conditional)
	}
	m.fixed = &rawPrice{}
	return json.Unmarshal(b, m.fixed)
}

func (m modelPrices) at(t time.Time) (Price, bool) {
	if m.fixed != nil {
		return m.fixed.price(), true
	}
	for i := len(m.conditional) - 1; i >= 0; i-- {
		if c := m.conditional[i]; c.Constraint.holds(t) {
			return c.Prices.price(), true
		}
	}
	return Price{}, false
}

func (c *constraint) holds(t time.Time) bool {
	if c == nil {
		return true
	}
	t = t.UTC()
	if c.StartDate != "" {
		d, err := time.Parse(time.DateOnly, c.StartDate)
		if err != nil || t.Before(d) {
			return false
		}
	}
	if c.StartTime != "" && c.EndTime != "" {
		now := t.Format("15:04:05")
		from, to := strings.TrimSuffix(c.StartTime, "Z"), strings.TrimSuffix(c.EndTime, "Z")
		if from <= to {
			return now >= from && now < to
		}
		return now >= from || now < to
	}
	return true
}

// rawPrice holds the catalog's per-million-token prices, each a number or
// {base, tiers}. Prices for cache, audio and requests are not used: the
// calls we price report input and output tokens only.
type rawPrice struct {
	Input  *tiered `json:"input_mtok"`
	Output *tiered `json:"output_mtok"`
}

type tiered struct {
	Base  float64 `json:"base"`
	Tiers []Tier  `json:"tiers"`
}

func (t *tiered) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		type plain tiered
		return json.Unmarshal(b, (*plain)(t))
	}
	return json.Unmarshal(b, &t.Base)
}

func (r rawPrice) price() Price {
	var p Price
	if r.Input != nil {
		p.InputPerMTok, p.InputTiers = &r.Input.Base, r.Input.Tiers
	}
	if r.Output != nil {
		p.OutputPerMTok, p.OutputTiers = &r.Output.Base, r.Output.Tiers
	}
	return p
}
