package suite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"sigs.k8s.io/yaml"

	"github.com/agentevals-go/agentevals/bounds"
)

// Position is where a question is declared: a file and the 1-based line on
// which the question starts.
type Position struct {
	File string
	Line int
}

// Positions returns, for each question id of the suite file at path, where
// the question is declared, for tools that point at it (GitHub annotations
// attach to a line of a pull request's diff). Ids are defaulted as Load
// does: an id defaults to the name, a name to the question text (or
// "Question N" for a structured question).
//
// Inline questions are located in the suite file, named by path as given,
// on the line of the question object's opening brace (JSON) or of its
// mapping (YAML). Golden-set questions are located in the JSONL file on
// their own line; that file is named by joining the suite's directory as
// given with the golden_set path (unless the latter is absolute).
//
// Positions assumes a suite that Load accepts; for other files it gives
// what it can find or an error. JSON files are scanned with a streaming
// decoder for byte offsets. YAML suites are parsed with go-yaml's AST for
// line numbers, and their ids are read from the same YAML-to-JSON
// conversion Load uses, so both agree on every scalar.
func Positions(path string) (map[string]Position, error) {
	data, err := bounds.ReadFile(path, bounds.DefaultMaxBytes)
	if err != nil {
		return nil, fmt.Errorf("question positions of %s: %w", path, err)
	}
	var items []questionItem
	var golden string
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".yaml" || ext == ".yml" {
		items, golden, err = yamlQuestionItems(data)
	} else {
		items, golden, err = jsonQuestionItems(data)
	}
	if err != nil {
		return nil, fmt.Errorf("question positions of %s: %w", path, err)
	}
	out := map[string]Position{}
	for i, it := range items {
		id := defaultedID(it.obj["id"], it.obj["name"], it.obj["question"], i)
		if _, dup := out[id]; !dup && id != "" {
			out[id] = Position{File: path, Line: it.line}
		}
	}
	if golden != "" {
		file := golden
		if !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(path), golden)
		}
		if err := goldenPositions(file, len(items), out); err != nil {
			return nil, fmt.Errorf("question positions of %s: %w", path, err)
		}
	}
	return out, nil
}

// questionItem is one element of "questions": its members and the line on
// which it starts.
type questionItem struct {
	obj  map[string]json.RawMessage
	line int
}

// defaultedID is the id Load gives a question with these id, name and
// question members at position (its index among the suite's questions).
func defaultedID(id, name, question json.RawMessage, position int) string {
	c := &Case{Question: question}
	_ = json.Unmarshal(id, &c.ID)
	_ = json.Unmarshal(name, &c.Name)
	(&Suite{}).defaults(c, position)
	return c.ID
}

// jsonQuestionItems scans a JSON suite: the top-level "questions" elements
// with the line each starts on, and "golden_set".
func jsonQuestionItems(data []byte) (items []questionItem, golden string, err error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, "", errors.New("want a JSON object at the top level")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", err
		}
		key, _ := tok.(string)
		switch key {
		case "questions":
			if items, err = jsonQuestionList(dec, data); err != nil {
				return nil, "", err
			}
		case "golden_set":
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, "", err
			}
			_ = json.Unmarshal(raw, &golden) // not a string: no golden set
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, "", err
			}
		}
	}
	return items, golden, nil
}

// jsonQuestionList reads the array after "questions". Each element starts
// at the first byte after the decoder's offset that is neither whitespace
// nor the separating comma.
func jsonQuestionList(dec *json.Decoder, data []byte) ([]questionItem, error) {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, errors.New(`"questions" is not a list`)
	}
	var items []questionItem
	for dec.More() {
		off := int(dec.InputOffset())
		off += len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n,"))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		var obj map[string]json.RawMessage
		_ = json.Unmarshal(raw, &obj) // not an object: no members, defaults apply
		items = append(items, questionItem{obj: obj, line: 1 + bytes.Count(data[:off], []byte("\n"))})
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, err
	}
	return items, nil
}

// yamlQuestionItems reads a YAML suite: members from the conversion to JSON
// that Load uses, lines from go-yaml's AST (the n-th sequence element is the
// n-th JSON element).
func yamlQuestionItems(data []byte) ([]questionItem, string, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, "", err
	}
	items, golden, err := jsonQuestionItems(js)
	if err != nil || len(items) == 0 {
		return items, golden, err
	}
	file, err := parser.ParseBytes(data, 0)
	if err != nil {
		return nil, "", err
	}
	var seq *ast.SequenceNode
	if len(file.Docs) > 0 {
		if top, ok := unwrapYAML(file.Docs[0].Body).(*ast.MappingNode); ok {
			for _, mv := range top.Values {
				if mv.Key.GetToken().Value == "questions" {
					seq, _ = unwrapYAML(mv.Value).(*ast.SequenceNode)
				}
			}
		}
	}
	if seq == nil || len(seq.Values) != len(items) {
		return nil, "", errors.New(`"questions" is not a list`)
	}
	for i, v := range seq.Values {
		items[i].line = v.GetToken().Position.Line
	}
	return items, golden, nil
}

// unwrapYAML returns the node under tags and anchors.
func unwrapYAML(n ast.Node) ast.Node {
	for {
		switch t := n.(type) {
		case *ast.TagNode:
			n = t.Value
		case *ast.AnchorNode:
			n = t.Value
		default:
			return n
		}
	}
}

// goldenPositions adds the position of every question of the JSONL golden
// set file, reading its lines as Load does; first is the number of inline
// questions before it.
func goldenPositions(file string, first int, out map[string]Position) error {
	f, err := bounds.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(bounds.NewReader(f, bounds.DefaultMaxBytes))
	sc.Buffer(make([]byte, 64<<10), maxGoldenLine)
	position := first
	for line := 1; sc.Scan(); line++ {
		data := bytes.TrimSpace(sc.Bytes())
		if len(data) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		_ = json.Unmarshal(data, &obj)
		id := defaultedID(obj["id"], nil, obj["input"], position)
		position++
		if _, dup := out[id]; !dup && id != "" {
			out[id] = Position{File: file, Line: line}
		}
	}
	return sc.Err()
}
