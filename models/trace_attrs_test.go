package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func TestAttrs_JSONAsAMap(t *testing.T) {
	tests := []struct {
		name  string
		attrs Attrs
	}{
		{name: "nil", attrs: nil},
		{name: "empty", attrs: Attrs{}},
		{name: "unsorted", attrs: Attrs{{"b", "2"}, {"a", "1"}, {"c", ""}}},
		{name: "repeated key, last wins", attrs: Attrs{{"k", "first"}, {"a", "x"}, {"k", "last"}}},
		{name: "html", attrs: Attrs{{"<k>", "a & b <c>"}}},
		{name: "escapes", attrs: Attrs{{"q\"\\", "tab\tnl\nbs\bff\fcr\r\x01\x1f\x7f"}}},
		{name: "unicode", attrs: Attrs{{"ключ", "значение ☃ \u2028 \u2029 😀"}}},
		{name: "invalid utf-8", attrs: Attrs{{"a\xff", "b\xc3(\xed\xa0\x80"}}},
		{name: "json values", attrs: Attrs{{"m", `[{"role":"a\\b","c":"<\u0001>"}]`}, {"n", `{"x":1}`}}},
		{name: "ascii escapes, then unicode", attrs: Attrs{{"k", "a\"b\n\\☃\t"}, {"del", "\x7f~"}}},
		{name: "keys by bytes", attrs: Attrs{{"é", "1"}, {"z", "2"}, {"Z", "3"}, {"", "4"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.attrs.Map())
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(tt.attrs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Marshal = %s, a map writes %s", got, want)
			}
			var buf, mbuf bytes.Buffer
			enc, menc := json.NewEncoder(&buf), json.NewEncoder(&mbuf)
			enc.SetEscapeHTML(false)
			menc.SetEscapeHTML(false)
			if enc.Encode(tt.attrs) != nil || menc.Encode(tt.attrs.Map()) != nil || !bytes.Equal(buf.Bytes(), mbuf.Bytes()) {
				t.Errorf("without HTML escaping: %s, a map writes %s", buf.Bytes(), mbuf.Bytes())
			}
			var back Attrs
			var mback map[string]string
			if json.Unmarshal(got, &back) != nil || json.Unmarshal(want, &mback) != nil {
				t.Fatal("read back failed")
			}
			if !reflect.DeepEqual(back.Map(), mback) {
				t.Errorf("read back %v, a map reads %v", back, mback)
			}
		})
	}
}

func TestAttrs_omittedWhenEmpty(t *testing.T) {
	for _, a := range []Attrs{nil, {}} {
		b, err := json.Marshal(TraceSpan{Name: "s", Attributes: a})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("attributes")) {
			t.Errorf("%#v written as %s", a, b)
		}
	}
}

func TestAttrs_Lookup(t *testing.T) {
	a := Attrs{{"k", "first"}, {"e", ""}, {"k", "last"}}
	tests := []struct {
		key, want string
		ok        bool
	}{
		{key: "k", want: "last", ok: true},
		{key: "e", want: "", ok: true},
		{key: "x", want: "", ok: false},
	}
	for _, tt := range tests {
		if v, ok := a.Lookup(tt.key); v != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.key, v, ok, tt.want, tt.ok)
		}
		if v := a.Get(tt.key); v != tt.want {
			t.Errorf("Get(%q) = %q, want %q", tt.key, v, tt.want)
		}
	}
}
