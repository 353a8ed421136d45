package jsonvalue

import (
	"math/big"
	"strings"
	"testing"
	"time"
)

func TestSameNumber(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"1", "1", true},
		{"1", "1.0", true},
		{"1", "1e0", true},
		{"1", "0.1e1", true},
		{"100", "1E2", true},
		{"100", "1e+2", true},
		{"0.5", "5e-1", true},
		{"-0", "0", true},
		{"0.0", "0e10", true},
		{"0", "-0e99999999999999999999999", true},
		{"-42", "-42.000", true},
		{"-0.0420e3", "-42", true},
		{"42", "-42", false},
		{"42", "4.2", false},
		{"1", "1.0000000000000000001", false},
		{"0.1", "0.1000000000000000001", false},
		{"12345678901234567890", "12345678901234567891", false},
		{"1e999999", "1e999998", false},
		{"1e999999", "10e999998", true},
		{"1e999999999", "1e999999999", true},
		{"1e999999999", "10e999999998", true},
		{"1e999999999", "1e999999998", false},
		{"1e99999999999999999999999", "10e99999999999999999999998", true},
		{"1e99999999999999999999999", "1e99999999999999999999998", false},
		{"1e-99999999999999999999999", "0.1e-99999999999999999999998", true},
		{"1e99999999999999999999999", "1e9", false},
		{"abc", "abc", true},
		{"abc", "1", false},
		{"1e", "1", false},
		{"1.", "1", false},
		{"1e+-2", "0.01", false},
	} {
		t.Run(tc.a+"="+tc.b, func(t *testing.T) {
			if got := SameNumber(tc.a, tc.b); got != tc.want {
				t.Errorf("SameNumber(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			if got := SameNumber(tc.b, tc.a); got != tc.want {
				t.Errorf("SameNumber(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.want)
			}
		})
	}
}

// TestSameNumber_agreesWithRationals checks every pair of a grid of
// literals against exact rational arithmetic (small exponents only).
func TestSameNumber_agreesWithRationals(t *testing.T) {
	var lits []string
	for _, sign := range []string{"", "-"} {
		for _, i := range []string{"0", "1", "10", "0012", "120"} {
			for _, f := range []string{"", ".0", ".5", ".50", ".05"} {
				for _, e := range []string{"", "e0", "e1", "e-1", "E+2", "e-03"} {
					lits = append(lits, sign+i+f+e)
				}
			}
		}
	}
	rats := make([]*big.Rat, len(lits))
	for i, l := range lits {
		r, ok := new(big.Rat).SetString(l)
		if !ok {
			t.Fatalf("big.Rat cannot read %s", l)
		}
		rats[i] = r
	}
	for i := range lits {
		for j := range lits {
			if got, want := SameNumber(lits[i], lits[j]), rats[i].Cmp(rats[j]) == 0; got != want {
				t.Errorf("SameNumber(%s, %s) = %v, want %v", lits[i], lits[j], got, want)
			}
		}
	}
}

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		want       bool
		err        string
	}{
		{name: "key order and whitespace", a: `{"a": 1, "b": [true, null]}`, b: `{"b":[true,null],"a":1}`, want: true},
		{name: "numbers by value", a: `[1.0, 1e2]`, b: `[1, 100]`, want: true},
		{name: "string is not number", a: `"1"`, b: `1`},
		{name: "array order", a: `[1, 2]`, b: `[2, 1]`},
		{name: "extra key", a: `{"a": 1}`, b: `{"a": 1, "b": 2}`},
		{name: "nested difference", a: `{"a": {"b": 1}}`, b: `{"a": {"b": 2}}`},
		{name: "null", a: `null`, b: ` null `, want: true},
		{name: "null is not empty object", a: `null`, b: `{}`},
		{name: "unicode escapes", a: `"東京"`, b: `"\u6771\u4eac"`, want: true},
		{name: "huge exponents", a: `{"n": 1e999999}`, b: `{"n": 1e999998}`},
		{name: "invalid first", a: `{oops`, b: `1`, err: "first document"},
		{name: "invalid second", a: `1`, b: `1 2`, err: "second document: unexpected data after the first JSON value"},
		{name: "empty", a: ``, b: `1`, err: "first document: EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Equal([]byte(tc.a), []byte(tc.b))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Equal(%s, %s) error = %v, want %q", tc.a, tc.b, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Equal(%s, %s) = %v, %v; want %v", tc.a, tc.b, got, err, tc.want)
			}
		})
	}
}

func TestKind(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`null`, "null"}, {`true`, "boolean"}, {`1.5`, "number"}, {`"x"`, "string"}, {`[]`, "array"}, {`{}`, "object"},
	} {
		v, err := Decode([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := Kind(v); got != tc.want {
			t.Errorf("Kind(%s) = %s, want %s", tc.doc, got, tc.want)
		}
	}
}

// TestSameNumber_hugeExponentIsFast: 1e999999 against 1e999998 is decided
// from the exponents' text (exact rationals took about 24 ms per pair).
func TestSameNumber_hugeExponentIsFast(t *testing.T) {
	const n = 1000
	start := time.Now()
	for range n {
		if SameNumber("1e999999", "1e999998") {
			t.Fatal("1e999999 equals 1e999998")
		}
	}
	if per := time.Since(start) / n; per > 100*time.Microsecond {
		t.Errorf("SameNumber(1e999999, 1e999998) took %v per call, want microseconds", per)
	}
	if allocs := testing.AllocsPerRun(100, func() { SameNumber("1e999999", "1e999998") }); allocs != 0 {
		t.Errorf("SameNumber allocates %v times, want 0", allocs)
	}
}

func BenchmarkEqual_hugeExponent(b *testing.B) {
	x, y := []byte(`1e999999`), []byte(`1e999998`)
	for b.Loop() {
		if same, err := Equal(x, y); same || err != nil {
			b.Fatal(same, err)
		}
	}
}

func BenchmarkSameNumber_hugeExponent(b *testing.B) {
	for b.Loop() {
		if SameNumber("1e999999", "1e999998") {
			b.Fatal("equal")
		}
	}
}
