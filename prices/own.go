package prices

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxOwnFile bounds a user's price file.
const maxOwnFile = 1 << 20

// MaxPerMTok is the highest price per million tokens a price file may
// give: far above any model's, and low enough that a cost summed over a
// whole run stays a finite number.
const MaxPerMTok = 1_000_000

// OwnPrice is one entry of a user's price file (--prices FILE): a model
// priced on any endpoint, for one provider or (Provider empty) for all,
// e.g. a fine-tune, a negotiated rate, or a local server priced at 0.
type OwnPrice struct {
	Provider      string   `json:"provider,omitempty"`
	Model         string   `json:"model"`
	InputPerMTok  *float64 `json:"input_mtok"`
	OutputPerMTok *float64 `json:"output_mtok"`
}

// OwnFile is the shape of a user's price file.
type OwnFile struct {
	Prices []OwnPrice `json:"prices"`
}

func (o OwnPrice) price() Price {
	return Price{InputPerMTok: o.InputPerMTok, OutputPerMTok: o.OutputPerMTok}
}

func readOwnFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxOwnFile+1))
	if err != nil {
		return nil, fmt.Errorf("prices: %s: %w", path, err)
	}
	if len(b) > maxOwnFile {
		return nil, fmt.Errorf("prices: %s: larger than the limit of %d bytes for a price file", path, maxOwnFile)
	}
	return b, nil
}

// parseOwn reads a price file, naming the file and the entry in its errors.
func parseOwn(path string, b []byte) ([]OwnPrice, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f OwnFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("prices: %s: want {\"prices\": [{\"provider\", \"model\", \"input_mtok\", \"output_mtok\"}]}: %w", path, err)
	}
	if len(f.Prices) == 0 {
		return nil, fmt.Errorf("prices: %s: $.prices: want a non-empty list of prices", path)
	}
	seen := map[string]int{}
	for i, p := range f.Prices {
		at := fmt.Sprintf("%s: $.prices[%d]", path, i)
		key := strings.ToLower(p.Provider) + "\x00" + strings.ToLower(p.Model)
		if j, dup := seen[key]; dup && p.Model != "" {
			return nil, fmt.Errorf("prices: %s: %q is priced twice (also $.prices[%d]): keep one entry per provider and model", at, p.Model, j)
		}
		seen[key] = i
		switch {
		case p.Model == "":
			return nil, fmt.Errorf("prices: %s.model: want the model name", at)
		case p.InputPerMTok == nil && p.OutputPerMTok == nil:
			return nil, fmt.Errorf("prices: %s: want input_mtok or output_mtok (USD per million tokens)", at)
		}
		for _, f := range []struct {
			name string
			v    *float64
		}{{"input_mtok", p.InputPerMTok}, {"output_mtok", p.OutputPerMTok}} {
			if f.v != nil && (*f.v < 0 || *f.v > MaxPerMTok) {
				return nil, fmt.Errorf("prices: %s.%s: want a price from 0 to %d USD per million tokens, got %g", at, f.name, MaxPerMTok, *f.v)
			}
		}
	}
	return f.Prices, nil
}
