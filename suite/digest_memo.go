package suite

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
	"math"
	"slices"
	"sort"
	"sync"
)

// digestMemo is the last digest a loaded suite computed, and what it was
// computed from. evalrun run digests the suite twice (the planned run the
// baseline is looked up with, then Execute's), and the canonical JSON of
// every question costs about 40 ms at 5,000 questions.
//
// A kept digest is returned only for the same suite (a copy of the Suite
// value shares the memo but is not its owner), the same calculated set and
// the same definition: the memo also keeps a fingerprint of the document
// the digest hashed, so a suite changed after its digest was computed
// (a case's question, a threshold, a new case) is digested anew. The
// fingerprint writes every value of the document without canonicalising
// it, which costs a small part of the digest.
type digestMemo struct {
	mu          sync.Mutex
	owner       *Suite
	calculated  []string
	fingerprint [sha256.Size]byte
	value       string
}

// digest returns the digest of doc, the document of s for the calculated
// names, from the memo when it was computed from the same.
func (m *digestMemo) digest(s *Suite, doc map[string]any, calculated []string) (string, error) {
	fp, ok := fingerprint(doc)
	m.mu.Lock()
	defer m.mu.Unlock()
	if ok && m.owner == s && slices.Equal(m.calculated, calculated) && m.fingerprint == fp {
		return m.value, nil
	}
	d, err := digestOf(doc)
	if err != nil || !ok {
		return d, err
	}
	m.owner, m.calculated, m.fingerprint, m.value = s, calculated, fp, d
	return d, nil
}

// fingerprint is the SHA-256 of an unambiguous encoding of v (each value
// tagged with its type, lengths and counts written before their content,
// map keys sorted). Values of equal fingerprints marshal to the same JSON,
// so they have the same digest. ok is false when v holds a value the
// encoding does not know (nothing is kept for it).
func fingerprint(v any) (sum [sha256.Size]byte, ok bool) {
	e := fingerprinter{h: sha256.New(), buf: make([]byte, 0, 32<<10)}
	if !e.value(v) {
		return sum, false
	}
	e.h.Write(e.buf)
	e.h.Sum(sum[:0])
	return sum, true
}

// fingerprinter writes the encoding to h through buf.
type fingerprinter struct {
	h   hash.Hash
	buf []byte
}

func (e *fingerprinter) value(v any) bool {
	switch t := v.(type) {
	case nil:
		e.tag('n')
	case string:
		e.text('s', t)
	case json.RawMessage:
		if t == nil {
			e.tag('n')
			return true
		}
		e.number('r', uint64(len(t)))
		e.buf = append(e.buf, t...)
	case json.Number:
		e.text('#', string(t))
	case bool:
		if t {
			e.tag('t')
		} else {
			e.tag('f')
		}
	case float64:
		e.number('d', math.Float64bits(t))
	case []string:
		if t == nil {
			e.tag('n')
			return true
		}
		e.number('S', uint64(len(t)))
		for _, s := range t {
			e.text('s', s)
		}
	case []any:
		if t == nil {
			e.tag('n')
			return true
		}
		e.number('a', uint64(len(t)))
		for _, x := range t {
			if !e.value(x) {
				return false
			}
		}
	case map[string]any:
		if t == nil {
			e.tag('n')
			return true
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		e.number('m', uint64(len(keys)))
		for _, k := range keys {
			e.text('s', k)
			if !e.value(t[k]) {
				return false
			}
		}
	default:
		return false
	}
	if len(e.buf) >= 16<<10 {
		e.h.Write(e.buf)
		e.buf = e.buf[:0]
	}
	return true
}

func (e *fingerprinter) tag(t byte) { e.buf = append(e.buf, t) }

// text writes a tag, the length of s and s.
func (e *fingerprinter) text(tag byte, s string) {
	e.number(tag, uint64(len(s)))
	e.buf = append(e.buf, s...)
}

// number writes a tag and a 64-bit number (a length, a count, a float's bits).
func (e *fingerprinter) number(tag byte, n uint64) {
	e.buf = append(e.buf, tag)
	e.buf = binary.LittleEndian.AppendUint64(e.buf, n)
}
