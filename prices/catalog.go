// Package prices estimates what a model call cost from a vendored public
// price catalog and an optional file of the user's own prices.
package prices

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The catalog is pydantic's genai-prices data (data_slim.json, MIT licence,
// see LICENSE.genai-prices and SOURCE.md), vendored unmodified so that an
// update is a file replacement.
//
//go:embed genai-prices.json
var vendored []byte

// CatalogDate is when the vendored catalog was last changed upstream.
const CatalogDate = "2026-07-25"

// Catalog finds the price of a model: the user's own prices first, then
// the vendored catalog. The zero value knows no prices; use Default or Load.
type Catalog struct {
	own       []OwnPrice
	providers []provider
	// lazy: the providers are the vendored catalog's, parsed on the first
	// lookup (a run that prices no call does not pay for the parse).
	lazy bool
}

// Price is a model's price in USD per million tokens. A nil field is a
// price the catalog does not give (then tokens of that kind have no known
// cost); Tiers raise the price of every token of a call once its input
// exceeds a tier's start.
type Price struct {
	InputPerMTok  *float64
	OutputPerMTok *float64
	InputTiers    []Tier
	OutputTiers   []Tier
}

// Tier is the price per million tokens of a call whose input tokens exceed
// Start.
type Tier struct {
	Start int64   `json:"start"`
	Price float64 `json:"price"`
}

// Cost is the cost of a call with in input and out output tokens, and
// whether it is known: a kind of token the price does not cover makes the
// cost unknown unless there are none of them.
func (p Price) Cost(in, out int64) (float64, bool) {
	inRate, ok1 := rate(p.InputPerMTok, p.InputTiers, in, in)
	outRate, ok2 := rate(p.OutputPerMTok, p.OutputTiers, in, out)
	if !ok1 || !ok2 {
		return 0, false
	}
	return (float64(in)*inRate + float64(out)*outRate) / 1e6, true
}

func rate(base *float64, tiers []Tier, in, count int64) (float64, bool) {
	if base == nil {
		return 0, count == 0
	}
	r := *base
	for _, t := range tiers {
		if in > t.Start {
			r = t.Price
		}
	}
	return r, true
}

// Call names the model of one call: the provider's catalog id (openai,
// anthropic, google, mistral, azure, aws …), the endpoint when it is not
// the provider's own, the model and when the call was made.
type Call struct {
	Provider string
	BaseURL  string
	Model    string
	At       time.Time
}

// Lookup returns the price of the call's model and whether it is known.
// A user's price matches by model name (and provider, when it names one)
// on any endpoint. A catalog price applies on the provider's own endpoint,
// or on a base URL the catalog recognises as some provider's API; any
// other endpoint (a compatible or local server) has no known price.
func (c *Catalog) Lookup(call Call) (Price, bool) {
	if c == nil {
		return Price{}, false
	}
	model := strings.ToLower(call.Model)
	for _, o := range c.own {
		if strings.ToLower(o.Model) == model && (o.Provider == "" || o.Provider == call.Provider) {
			return o.price(), true
		}
	}
	prov, ok := c.providerFor(call)
	if !ok {
		return Price{}, false
	}
	if p, ok := prov.find(model, call.At); ok {
		return p, true
	}
	for _, id := range prov.Fallback {
		if fb, ok := c.byID(id); ok {
			if p, ok := fb.find(model, call.At); ok {
				return p, true
			}
		}
	}
	return Price{}, false
}

func (c *Catalog) providerFor(call Call) (provider, bool) {
	if call.BaseURL == "" {
		return c.byID(call.Provider)
	}
	for _, p := range c.list() {
		if p.api != nil && p.api.MatchString(call.BaseURL) {
			return p, true
		}
	}
	return provider{}, false
}

func (c *Catalog) byID(id string) (provider, bool) {
	for _, p := range c.list() {
		if p.ID == id {
			return p, true
		}
	}
	return provider{}, false
}

// Models counts the models the catalog prices, per provider id.
func (c *Catalog) Models() map[string]int {
	n := map[string]int{}
	for _, p := range c.list() {
		n[p.ID] = len(p.Models)
	}
	return n
}

// list is the catalog's providers.
func (c *Catalog) list() []provider {
	if !c.lazy {
		return c.providers
	}
	v, err := parsed()
	if err != nil { // not reached: the tests parse the vendored file
		return nil
	}
	return v.providers
}

var parsed = sync.OnceValues(func() (*Catalog, error) { return parse(vendored) })

// Default returns the vendored catalog. It is parsed once and never
// changed afterwards.
func Default() (*Catalog, error) { return parsed() }

// Load returns the vendored catalog under the user's own prices read from
// path (see OwnFile; an empty path: none). The vendored part is parsed on
// the first lookup that reaches it, not here.
func Load(path string) (*Catalog, error) {
	if path == "" {
		return &Catalog{lazy: true}, nil
	}
	b, err := readOwnFile(path)
	if err != nil {
		return nil, err
	}
	own, err := parseOwn(path, b)
	if err != nil {
		return nil, err
	}
	return &Catalog{own: own, lazy: true}, nil
}

func parse(b []byte) (*Catalog, error) {
	var raw []provider
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("prices: the vendored catalog: %w", err)
	}
	for i := range raw {
		if raw[i].APIPattern != "" {
			re, err := regexp.Compile(raw[i].APIPattern)
			if err != nil {
				return nil, fmt.Errorf("prices: the vendored catalog: provider %s: api_pattern: %w", raw[i].ID, err)
			}
			raw[i].api = re
		}
		for j := range raw[i].Models {
			if err := raw[i].Models[j].Match.compile(); err != nil {
				return nil, fmt.Errorf("prices: the vendored catalog: %s/%s: %w", raw[i].ID, raw[i].Models[j].ID, err)
			}
		}
	}
	return &Catalog{providers: raw}, nil
}
