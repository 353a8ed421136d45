package models

import "github.com/agentevals-go/agentevals/money"

// Decimal is the exact decimal of the cost column (money.Decimal).
type Decimal = money.Decimal

// ParseDecimal reads a decimal number in JSON number syntax
// (money.ParseDecimal).
func ParseDecimal(s string) (Decimal, error) { return money.ParseDecimal(s) }

// DecimalOf is the shortest decimal text that reads back as f
// (money.DecimalOf).
func DecimalOf(f float64) Decimal { return money.DecimalOf(f) }
