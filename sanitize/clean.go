package sanitize

// Checking a typed record's strings one by one, without encoding the record
// and scanning the JSON: Key and Policy.CleanString answer, for a string
// that encoding/json would write, whether Policy.JSON of the written
// document would leave it as it is. A record all of whose strings are
// clean encodes to a document JSON returns unchanged; a record with one
// that is not must go through JSON itself, which says what it changes.

// Key is an object member's name as JSON treats it, read once for the
// many values written under the same name.
type Key struct {
	name      string
	repaired  bool // Repair changes the name
	sensitive bool // SensitiveName: non-empty values are redacted
	usage     bool // a usage name: numbers under it are kept
}

// NewKey reads name as JSON would read an object's key.
func NewKey(name string) Key {
	_, fixed := Repair(name)
	k := Key{name: name, repaired: fixed, sensitive: SensitiveName(name)}
	k.usage = k.sensitive && usageName(name)
	return k
}

// Clean reports whether JSON leaves the key itself as it is.
func (k Key) Clean() bool { return !k.repaired }

// Sensitive reports whether a non-empty string under the name is
// redacted whole (but a usage count).
func (k Key) Sensitive() bool { return k.sensitive }

// CleanMember reports whether JSON leaves the key, and the string s as
// its value, as they are.
func (p Policy) CleanMember(k Key, s string) bool {
	if k.repaired {
		return false
	}
	if k.sensitive && s != "" && s != Redacted && !(k.usage && isNumber(s)) {
		return false
	}
	return p.CleanString(s)
}

// CleanString reports whether JSON leaves the string s as it is where
// no key decides (an array's element), as Policy.Text would.
func (p Policy) CleanString(s string) bool {
	if _, fixed := Repair(s); fixed {
		return false
	}
	clean, pii := quickClean(p, s, hints(s))
	return clean || cleanText(s, pii)
}
