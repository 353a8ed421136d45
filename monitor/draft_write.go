package monitor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/sanitize"
)

// ReviewKey is the question metadata key that marks a question drafted
// from production for review: its reference answer and expected actions
// are what the agent did, not yet what it should do.
const ReviewKey = "review"

// ActionsCheck is the name of the check a drafted question gets when the
// case made tool calls: action_group over the expected actions, in order
// with others allowed between, on the arguments they give (partial).
const ActionsCheck = "production_actions"

type draftQuestion struct {
	ID              string            `json:"id"`
	Question        string            `json:"question,omitempty"`
	Turns           []draftTurn       `json:"turns,omitempty"`
	ExpectedAnswer  *string           `json:"expected_answer,omitempty"`
	ExpectedActions []expectedAction  `json:"expected_actions"`
	Checks          []json.RawMessage `json:"checks"`
	Metadata        draftMetadata     `json:"metadata"`
}

type draftTurn struct {
	Content  string `json:"content"`
	Expected string `json:"expected"`
}

type expectedAction struct {
	Group     string          `json:"group,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// actionsCheck is the ActionsCheck as written, its keys in reading order.
type actionsCheck struct {
	Name      string  `json:"name"`
	Type      string  `json:"type"`
	Mode      string  `json:"mode"`
	Arguments string  `json:"arguments"`
	Threshold float64 `json:"threshold"`
}

type draftMetadata struct {
	Review     bool        `json:"review"`
	Production DraftSource `json:"production"`
}

// Write is the draft as one suite question with id and the given checks
// (as written in a monitor), every string through the policy first.
// The question always checks the observed calls (ActionsCheck) and, when
// no other check is given, nothing else: a question without checks would
// take the suite's defaults.
func (d Draft) Write(id string, checks []json.RawMessage, p sanitize.Policy) ([]byte, error) {
	text := p.String
	q := draftQuestion{ID: text(id), Question: text(d.Question),
		ExpectedActions: make([]expectedAction, 0, len(d.Actions)), Metadata: draftMetadata{Review: true, Production: d.Source}}
	if d.Answer != "" {
		answer := text(d.Answer)
		q.ExpectedAnswer = &answer
	}
	for _, t := range d.Turns {
		q.Turns = append(q.Turns, draftTurn{Content: text(t.User), Expected: text(t.Agent)})
	}
	for _, a := range d.Actions {
		ea := expectedAction{Group: text(a.Group), Name: text(a.Name)}
		if args := bytes.TrimSpace(a.Arguments); len(args) > 0 && string(args) != "null" && string(args) != "{}" {
			clean, _ := p.JSON(args)
			ea.Arguments = clean
		}
		q.ExpectedActions = append(q.ExpectedActions, ea)
	}
	src := &q.Metadata.Production
	src.CaseID, src.ConversationID, src.File = text(src.CaseID), text(src.ConversationID), text(src.File)
	actions, _ := json.Marshal(actionsCheck{Name: ActionsCheck, Type: "action_group", Mode: "in_order", Arguments: "partial", Threshold: 1})
	q.Checks = append([]json.RawMessage{actions}, checks...)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	if err := enc.Encode(q); err != nil {
		return nil, fmt.Errorf("draft question: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// ErrNotJSONSuite is returned by AppendQuestion for a file that is not a
// JSON object.
var ErrNotJSONSuite = errors.New("not a JSON suite: a question is added to a JSON suite file (a YAML suite: add it by hand)")

// AppendQuestion returns the suite file with question added at the end of
// its "questions" array (made when the file has none), every other byte
// kept as written.
func AppendQuestion(suiteFile, question []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(suiteFile))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, ErrNotJSONSuite
	}
	splice := func(at int64, text string) []byte {
		out := make([]byte, 0, len(suiteFile)+len(text))
		out = append(out, suiteFile[:at]...)
		out = append(out, text...)
		return append(out, suiteFile[at:]...)
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("suite file: %w", err)
		}
		if key != "questions" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("suite file: %w", err)
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return nil, errors.New("suite file: $.questions: want an array")
		}
		at, sep := dec.InputOffset(), "\n    "
		for dec.More() {
			var item json.RawMessage
			if err := dec.Decode(&item); err != nil {
				return nil, fmt.Errorf("suite file: $.questions: %w", err)
			}
			at, sep = dec.InputOffset(), ",\n    "
		}
		return splice(at, sep+string(question)), nil
	}
	end := bytes.LastIndexByte(suiteFile, '}')
	body := strings.TrimSpace(string(suiteFile[:end]))
	sep := ",\n  "
	if strings.HasSuffix(body, "{") {
		sep = "\n  "
	}
	return splice(int64(len(strings.TrimRight(string(suiteFile[:end]), " \t\r\n"))), sep+`"questions": [`+"\n    "+string(question)+"\n  ]"), nil
}
