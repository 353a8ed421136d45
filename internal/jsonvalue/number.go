package jsonvalue

import (
	"math/big"
	"strconv"
	"strings"
)

// SameNumber reports whether two JSON number literals have the same exact
// decimal value (1, 1.0, 1e0 and 0.1e1 are equal; no float64 rounding).
// It compares significant digits and exponents as text, so the work grows
// with the literals' length, never with their magnitude (1e999999 is never
// expanded). A literal that is not a JSON number equals only itself.
func SameNumber(a, b string) bool {
	if a == b {
		return true
	}
	x, okx := parseNumber(a)
	y, oky := parseNumber(b)
	if !okx || !oky {
		return false
	}
	if x.digits == "" || y.digits == "" { // zero, whatever its sign or exponent
		return x.digits == y.digits
	}
	return x.neg == y.neg && x.digits == y.digits && sameExponent(x, y)
}

// number is a literal as ±0.digits × 10^(exp+shift), digits without
// leading or trailing zeros ("" for zero); exp is the literal's exponent
// as written (sign and digits, "" for none).
type number struct {
	neg    bool
	digits string
	exp    string
	shift  int64
}

// parseNumber reads a JSON number literal (-?digits[.digits][e[±]digits]).
func parseNumber(s string) (number, bool) {
	var n number
	if strings.HasPrefix(s, "-") {
		n.neg, s = true, s[1:]
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	if hasExp {
		digits := exp
		if strings.HasPrefix(digits, "+") || strings.HasPrefix(digits, "-") {
			digits = digits[1:]
		}
		if !allDigits(digits) {
			return number{}, false
		}
		n.exp = exp
	}
	intPart, frac, hasFrac := strings.Cut(mant, ".")
	if !allDigits(intPart) || (hasFrac && !allDigits(frac)) {
		return number{}, false
	}
	all := intPart + frac
	trimmed := strings.TrimLeft(all, "0")
	n.digits = strings.TrimRight(trimmed, "0")
	// 0.d1d2… × 10^shift: the point moves right by the integer digits
	// that remain once leading zeros are gone.
	n.shift = int64(len(intPart)) - int64(len(all)-len(trimmed))
	return n, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// sameExponent compares exp+shift of two numbers; exponents of up to 18
// digits use int64, longer ones big.Int on their digits (never 10^exp).
func sameExponent(x, y number) bool {
	ex, okx := smallExponent(x.exp)
	ey, oky := smallExponent(y.exp)
	if okx && oky {
		return ex+x.shift == ey+y.shift
	}
	bx, by := bigExponent(x.exp), bigExponent(y.exp)
	bx.Add(bx, big.NewInt(x.shift))
	by.Add(by, big.NewInt(y.shift))
	return bx.Cmp(by) == 0
}

func smallExponent(exp string) (int64, bool) {
	if exp == "" {
		return 0, true
	}
	if len(strings.TrimLeft(exp, "+-0")) > 18 { // sign and leading zeros aside
		return 0, false
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	return e, err == nil
}

func bigExponent(exp string) *big.Int {
	e, ok := new(big.Int).SetString(strings.TrimPrefix(exp, "+"), 10)
	if !ok {
		return new(big.Int)
	}
	return e
}
