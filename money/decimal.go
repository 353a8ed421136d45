// Package money is the exact cost of a model call or a case: a decimal
// kept as its text, so no digit is lost to float64 on the way to the
// numeric cost column.
package money

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Decimal is an exact decimal number kept as its decimal text, for the
// numeric cost column: "0.0001234567890123456" is written and read back
// digit for digit on PostgreSQL (a float64 keeps 15 to 17 significant
// digits). It encodes as a JSON number. SQLite's embedded schema stores
// cost as REAL, so there it reads back as the shortest text of a float64.
type Decimal string

// ParseDecimal reads a decimal number in JSON number syntax ("12",
// "-0.5", "1.25e-3"); anything else, including NaN and infinities, is an
// error.
func ParseDecimal(s string) (Decimal, error) {
	s = strings.TrimSpace(s)
	if !json.Valid([]byte(s)) || s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return "", fmt.Errorf("parse decimal %q: want a number", s)
	}
	return Decimal(s), nil
}

// DecimalOf is the shortest decimal text that reads back as f (NaN and
// infinities, which no decimal represents, give "0").
func DecimalOf(f float64) Decimal {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	return Decimal(strconv.FormatFloat(f, 'f', -1, 64))
}

// Float64 is the nearest float64, for arithmetic and display.
func (d Decimal) Float64() float64 {
	f, _ := strconv.ParseFloat(string(d), 64)
	return f
}

// Rat is the exact value (nil when the text is not a number).
func (d Decimal) Rat() *big.Rat {
	r, ok := new(big.Rat).SetString(string(d))
	if !ok {
		return nil
	}
	return r
}

// Add returns d + e exactly, written with as many decimals as the longer
// of the two needs.
func (d Decimal) Add(e Decimal) Decimal {
	a, b := d.Rat(), e.Rat()
	if a == nil || b == nil {
		return DecimalOf(d.Float64() + e.Float64())
	}
	sum := new(big.Rat).Add(a, b)
	return Decimal(trimZeros(sum.FloatString(max(d.scale(), e.scale()))))
}

// scale is the number of digits after the decimal point that d needs
// (counting an exponent).
func (d Decimal) scale() int {
	s := strings.ToLower(string(d))
	mant, exp, _ := strings.Cut(s, "e")
	n := 0
	if _, frac, ok := strings.Cut(mant, "."); ok {
		n = len(frac)
	}
	if exp != "" {
		e, _ := strconv.Atoi(exp)
		n -= e
	}
	return max(n, 0)
}

// trimZeros drops trailing zeros after a decimal point ("1.500" -> "1.5").
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// String is the decimal text.
func (d Decimal) String() string { return string(d) }

// Value implements driver.Valuer: the decimal text, which PostgreSQL's
// numeric takes exactly.
func (d Decimal) Value() (driver.Value, error) { return string(d), nil }

// Scan implements sql.Scanner for numeric text and SQLite's REAL.
func (d *Decimal) Scan(src any) error {
	switch v := src.(type) {
	case []byte:
		*d = Decimal(v)
	case string:
		*d = Decimal(v)
	case float64:
		*d = DecimalOf(v)
	case int64:
		*d = Decimal(strconv.FormatInt(v, 10))
	default:
		return fmt.Errorf("scan decimal: unsupported type %T", src)
	}
	return nil
}

// MarshalJSON writes the decimal as a JSON number, digit for digit.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if _, err := ParseDecimal(string(d)); err != nil {
		return nil, err
	}
	return []byte(d), nil
}

// UnmarshalJSON reads a JSON number (or a string holding one, as Rails
// serializes BigDecimal) without going through float64.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if len(s) > 1 && s[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := ParseDecimal(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}
