package replay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Definition is the fixtures' contribution to the suite fingerprint: request
// assertions, response status and headers, allowed hosts and the SHA-256 of
// every response body, as plain JSON values (maps, slices, strings,
// json.Number, bool, nil). Marshaled with encoding/json it is canonical
// (sorted keys, compact). Body file names do not take part; their bytes do.
// A nil *Fixtures has no definition (nil).
func (f *Fixtures) Definition() map[string]any {
	if f == nil {
		return nil
	}
	hosts := make([]any, len(f.AllowHosts))
	for i, h := range f.AllowHosts {
		hosts[i] = h
	}
	items := make([]any, len(f.Interactions))
	for i, in := range f.Interactions {
		req := map[string]any{
			"method":  in.Request.Method,
			"url":     in.Request.URL,
			"query":   queryValue(in.Request.Query),
			"headers": headerValue(in.Request.Headers),
		}
		if in.Request.JSON != nil {
			req["json"] = decodeJSON(in.Request.JSON)
		}
		sum := sha256.Sum256(in.Response.Body)
		items[i] = map[string]any{
			"request": req,
			"response": map[string]any{
				"status":      json.Number(strconv.Itoa(in.Response.Status)),
				"headers":     headerValue(in.Response.Headers),
				"body_sha256": hex.EncodeToString(sum[:]),
			},
		}
	}
	return map[string]any{"allow_hosts": hosts, "interactions": items}
}

// queryValue is q with each name's values sorted (order does not matter,
// multiplicity does).
func queryValue(q url.Values) map[string]any {
	out := make(map[string]any, len(q))
	for k, vs := range q {
		sorted := append([]string(nil), vs...)
		sort.Strings(sorted)
		list := make([]any, len(sorted))
		for i, v := range sorted {
			list[i] = v
		}
		out[k] = list
	}
	return out
}

// headerValue keys h by lower-case name.
func headerValue(h map[string]string) map[string]any {
	out := make(map[string]any, len(h))
	for k, v := range h {
		out[strings.ToLower(k)] = v
	}
	return out
}

// decodeJSON decodes valid JSON keeping numbers as json.Number.
func decodeJSON(raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}
