package money

import "testing"

func TestDecimal(t *testing.T) {
	tests := []struct {
		a, b, sum string
	}{
		{"0.0001234567890123456", "0.0002", "0.0003234567890123456"},
		{"0.0002", "0.0002", "0.0004"},
		{"1", "2.50", "3.5"},
		{"1e-3", "0.001", "0.002"},
		{"12345678901234567890", "1", "12345678901234567891"},
	}
	for _, tt := range tests {
		if got := Decimal(tt.a).Add(Decimal(tt.b)); got != Decimal(tt.sum) {
			t.Errorf("%s + %s = %s, want %s", tt.a, tt.b, got, tt.sum)
		}
	}
	for _, bad := range []string{"", "NaN", "1,5", "0x10", `"1"`, "Infinity", "--1"} {
		if _, err := ParseDecimal(bad); err == nil {
			t.Errorf("ParseDecimal(%q) accepted", bad)
		}
	}
	var d Decimal
	if err := d.UnmarshalJSON([]byte(`"0.000123"`)); err != nil || d != "0.000123" {
		t.Errorf("UnmarshalJSON of Rails' BigDecimal string = %q, %v", d, err)
	}
	if got := DecimalOf(0.0012); got != "0.0012" {
		t.Errorf("DecimalOf(0.0012) = %s", got)
	}
	if b, err := Decimal("0.0001234567890123456").MarshalJSON(); err != nil || string(b) != "0.0001234567890123456" {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
}
