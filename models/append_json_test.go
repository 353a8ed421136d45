package models

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

var appendJSONSeeds = []string{
	``, `plain`, `{"q": "returns policy", "limit": 5}`, "a\x00b\x1f\x7f", "\b\f\n\r\t\"\\", `<b>&amp;</b>`,
	"\u2028\u2029", "\xe2\x80", "\xe2\x80\xa8x", "bad\xffutf8\xc3", "é ü 日本", "\xed\xa0\x80", `[1, 2 , {"a" : "b c"}]`,
	` {"x":"\"<y>\"", "z":[true ,null]} `, `"\\"`, `"\u2028 \u003c"`, "\"a\u2028b\"", `-1.5e+3`, `{"":{}}`,
}

// AppendJSONString writes what json.Marshal writes for any string:
//
//	go test -fuzz FuzzAppendJSONString ./models/
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range appendJSONSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendJSONString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("AppendJSONString(%q) = %s; json.Marshal writes %s", s, got[1:], want)
		}
	})
}

// AppendJSONRaw writes what json.Marshal writes for any valid JSON text:
//
//	go test -fuzz FuzzAppendJSONRaw ./models/
func FuzzAppendJSONRaw(f *testing.F) {
	for _, s := range appendJSONSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		want, err := json.Marshal(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONRaw([]byte("x"), json.RawMessage(s)); !bytes.Equal(got[1:], want) {
			t.Fatalf("AppendJSONRaw(%q) = %s; json.Marshal writes %s", s, got[1:], want)
		}
	})
}

func TestAppendJSONFloat(t *testing.T) {
	for _, f := range []float64{0, 1, -1.5, 0.001, 1e-7, 123456.789, 1e20, 1e21, 5e-324, math.MaxFloat64} {
		want, _ := json.Marshal(f)
		if got, err := AppendJSONFloat(nil, f); err != nil || !bytes.Equal(got, want) {
			t.Errorf("AppendJSONFloat(%v) = %s, %v; json.Marshal writes %s", f, got, err, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(-1)} {
		if _, err := AppendJSONFloat(nil, f); err == nil {
			t.Errorf("AppendJSONFloat(%v): no error", f)
		}
	}
}
