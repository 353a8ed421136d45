package models

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// readTolerantly lets the records read numbers from columns whose type
// differs from the contract in a compatible way (docs/architecture.md, the database contract): an integer
// column where the contract has double precision, or double precision or
// numeric where it has integer. Bun's own scanners refuse an int64 for a
// float64 field and a float64 for an int64 field, so the number fields of
// the three records get scanners that convert. Everything else keeps Bun's
// scanner.
func readTolerantly(db *bun.DB) {
	for _, model := range []any{(*Run)(nil), (*CaseResult)(nil), (*MetricResult)(nil)} {
		table := db.Table(reflect.TypeOf(model).Elem())
		for _, f := range table.Fields {
			typ := f.StructField.Type
			ptr := typ.Kind() == reflect.Pointer
			if ptr {
				typ = typ.Elem()
			}
			var fn schema.ScannerFunc
			switch typ.Kind() {
			case reflect.Float32, reflect.Float64:
				fn = scanAnyFloat
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				fn = scanAnyInt
			default:
				continue
			}
			if ptr {
				fn = schema.PtrScanner(fn)
			}
			f.Scan = fn
		}
	}
}

func scanAnyFloat(dest reflect.Value, src any) error {
	switch v := src.(type) {
	case nil:
		dest.SetFloat(0)
	case float64:
		dest.SetFloat(v)
	case float32:
		dest.SetFloat(float64(v))
	case int64:
		dest.SetFloat(float64(v))
	case []byte:
		return scanAnyFloat(dest, string(v))
	case string:
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("scan %q into %s: %w", v, dest.Type(), err)
		}
		dest.SetFloat(f)
	default:
		return fmt.Errorf("scan %T into %s: unsupported type", src, dest.Type())
	}
	return nil
}

func scanAnyInt(dest reflect.Value, src any) error {
	switch v := src.(type) {
	case nil:
		dest.SetInt(0)
	case int64:
		dest.SetInt(v)
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1<<53 {
			return fmt.Errorf("scan %v into %s: not a whole number", v, dest.Type())
		}
		dest.SetInt(int64(v))
	case []byte:
		return scanAnyInt(dest, string(v))
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			f, ferr := strconv.ParseFloat(v, 64)
			if ferr != nil {
				return fmt.Errorf("scan %q into %s: %w", v, dest.Type(), err)
			}
			return scanAnyInt(dest, f)
		}
		dest.SetInt(n)
	default:
		return fmt.Errorf("scan %T into %s: unsupported type", src, dest.Type())
	}
	return nil
}
