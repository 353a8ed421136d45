package adapter

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"maps"

	"github.com/agentevals-go/agentevals/agent"
)

// DefaultMaxAnswerBytes is how much of an agent's answer (the "output"
// string of a Response, or a plain-text reply) is kept when neither the
// suite (agent.max_answer_bytes) nor the run (--max-answer-bytes) says
// otherwise.
const DefaultMaxAnswerBytes = 1 << 20

// answerBuffer reads an agent's reply (stdout, or an HTTP body) without
// keeping more than the answer cap of its answer: beyond the cap the
// top-level "output" string of a JSON Response (or a plain-text reply) is
// cut at a character boundary and the rest only counted and hashed. The
// kept bytes stay a valid JSON document whenever the reply was one, so the
// Response parses as usual with a shortened output. Everything else of the
// reply (actions, metadata) is kept up to max bytes in total; beyond that
// the reply is refused (over).
//
// evalrun's memory therefore grows with the cap and the concurrency, not
// with the size of the answers.
type answerBuffer struct {
	limit int // cap on the kept answer text
	max   int // cap on everything kept
	Buf   []byte
	sum   hash.Hash
	total int64
	over  bool // more than max bytes had to be kept
	cut   bool // the answer was cut at limit

	mode       byte // 0 undecided, 'j' a JSON object, 't' plain text
	depth      int
	inStr, esc bool
	uLeft      int  // hex digits left of a \u escape
	keyNext    bool // at depth 1 the next string is a key
	inKey      bool
	key        []byte
	lastKey    string
	valueNext  bool // at depth 1 after ':'
	inOutput   bool // inside the top-level "output" string
	kept       int  // bytes of the answer kept
}

func newAnswerBuffer(limit, max int) *answerBuffer {
	if limit <= 0 {
		limit = DefaultMaxAnswerBytes
	}
	return &answerBuffer{limit: limit, max: max, sum: sha256.New()}
}

// Write keeps what fits and never fails.
func (a *answerBuffer) Write(p []byte) (int, error) {
	a.sum.Write(p)
	a.total += int64(len(p))
	for _, c := range p {
		if a.step(c) {
			if len(a.Buf) >= a.max {
				a.over = true
				continue
			}
			a.Buf = append(a.Buf, c)
		}
	}
	return len(p), nil
}

// step advances the scanner by c and reports whether c is kept.
func (a *answerBuffer) step(c byte) bool {
	switch a.mode {
	case 0:
		switch c {
		case ' ', '\t', '\r', '\n':
			return true
		case '{':
			a.mode = 'j'
		default:
			a.mode = 't'
			return a.answerByte(c)
		}
	case 't':
		return a.answerByte(c)
	}
	return a.jsonByte(c)
}

// answerByte keeps c unless the answer reached its limit; the cut falls on
// the first character boundary at or after the limit.
func (a *answerBuffer) answerByte(c byte) bool {
	if !a.cut && a.kept >= a.limit && c&0xC0 != 0x80 {
		a.cut = true
	}
	if a.cut {
		return false
	}
	a.kept++
	return true
}

func (a *answerBuffer) jsonByte(c byte) bool {
	if a.inStr {
		return a.stringByte(c)
	}
	switch c {
	case '"':
		a.inStr = true
		if a.depth == 1 && a.keyNext {
			a.inKey, a.key = true, a.key[:0]
		} else if a.depth == 1 && a.valueNext {
			a.valueNext = false
			a.inOutput = a.lastKey == "output"
		}
	case '{', '[':
		a.depth++
		if a.depth == 1 {
			a.keyNext = true
		}
		a.valueNext = false
	case '}', ']':
		a.depth--
	case ':':
		if a.depth == 1 {
			a.valueNext = true
		}
	case ',':
		if a.depth == 1 {
			a.keyNext, a.valueNext = true, false
		}
	}
	return true
}

func (a *answerBuffer) stringByte(c byte) bool {
	if a.inOutput {
		switch {
		case a.uLeft > 0:
			a.uLeft--
			return !a.cut
		case a.esc:
			a.esc = false
			if c == 'u' {
				a.uLeft = 4
			}
			return !a.cut
		case c == '"':
			a.inStr, a.inOutput = false, false
			return true
		case c == '\\':
			a.esc = true
			return a.answerByte(c)
		}
		return a.answerByte(c)
	}
	switch {
	case a.esc:
		a.esc = false
	case c == '\\':
		a.esc = true
	case c == '"':
		a.inStr = false
		if a.inKey {
			a.inKey, a.keyNext, a.lastKey = false, false, string(a.key)
		}
		return true
	}
	if a.inKey && len(a.key) < 64 {
		a.key = append(a.key, c)
	}
	return true
}

// Truncation describes a cut answer for the case's response metadata
// ("output_truncated"), nil when nothing was cut.
func (a *answerBuffer) Truncation() map[string]any {
	if !a.cut {
		return nil
	}
	return map[string]any{
		"limit_bytes":  a.limit,
		"kept_bytes":   a.kept,
		"reply_bytes":  a.total,
		"reply_sha256": hex.EncodeToString(a.sum.Sum(nil)),
		"note":         "the answer was longer than the limit: only its first kept_bytes were kept and scored; reply_bytes and reply_sha256 describe the agent's whole reply",
	}
}

// withTruncation notes in resp's metadata (output_truncated) that its
// answer was cut.
func withTruncation(resp agent.Response, a *answerBuffer) agent.Response {
	t := a.Truncation()
	if t == nil {
		return resp
	}
	resp.Metadata = maps.Clone(resp.Metadata)
	if resp.Metadata == nil {
		resp.Metadata = map[string]any{}
	}
	resp.Metadata["output_truncated"] = t
	return resp
}
