package models

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The Append functions write values exactly as encoding/json writes them,
// without reflection: a record of many spans or tool calls is written on
// every case. Text that encoding/json would escape or change goes through
// encoding/json itself.

// AppendJSONString writes s as json.Marshal does.
func AppendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if stringRewrites[s[i]] {
			out, _ := json.Marshal(s) // a string always encodes
			return append(b, out...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendJSONRaw writes JSON text as json.Marshal writes a RawMessage
// (compacted, HTML characters escaped). raw must be JSON (json.Valid):
// written as it is, it is not checked again; an error when a rewrite
// finds it is not.
func AppendJSONRaw(b []byte, raw json.RawMessage) ([]byte, error) {
	for _, c := range raw {
		if rawRewrites[c] {
			out, err := json.Marshal(raw)
			if err != nil {
				return b, err
			}
			return append(b, out...), nil
		}
	}
	return append(b, raw...), nil
}

// AppendJSONFloat writes f as json.Marshal writes a float64; an error
// for NaN and the infinities, which JSON cannot hold.
func AppendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// stringRewrites are the bytes encoding/json escapes or checks in a
// string; rawRewrites those it removes or escapes in raw JSON text.
var stringRewrites, rawRewrites = func() (str, raw [256]bool) {
	for c := range 256 {
		str[c] = c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&'
		raw[c] = c <= ' ' || c >= 0x80 || c == '<' || c == '>' || c == '&'
	}
	return str, raw
}()
