package models

import "testing"

func TestJSONScanKeepsNullsApartAndAcceptsSQLNumbers(t *testing.T) {
	for _, tc := range []struct {
		src     any
		want    string
		sqlNull bool
	}{
		{nil, "", true},
		{"null", "null", false},
		{[]byte(`{"a":[1,"ü"]}`), `{"a":[1,"ü"]}`, false},
		{`"text"`, `"text"`, false},
		// SQLite columns declared json have numeric affinity.
		{int64(42), "42", false},
		{1.5, "1.5", false},
		{true, "true", false},
	} {
		var j JSON
		if err := j.Scan(tc.src); err != nil {
			t.Fatalf("Scan(%#v): %v", tc.src, err)
		}
		if j.IsSQLNull() != tc.sqlNull || (!tc.sqlNull && string(j) != tc.want) {
			t.Errorf("Scan(%#v) = %q (SQL NULL %v), want %q (SQL NULL %v)", tc.src, j, j.IsSQLNull(), tc.want, tc.sqlNull)
		}
		v, err := j.Value()
		if err != nil {
			t.Fatal(err)
		}
		if (v == nil) != tc.sqlNull {
			t.Errorf("Value of %q = %#v: SQL NULL must stay SQL NULL and JSON null stay JSON null", j, v)
		}
	}
	if err := new(JSON).Scan(struct{}{}); err == nil {
		t.Error("Scan of an unsupported type succeeded")
	}
}
