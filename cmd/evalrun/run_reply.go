package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// replyNoteLine is the run table's line under a case whose reply was not
// one Response object as a whole (response_metadata.reply_note); "" when
// it was.
func replyNoteLine(c *models.CaseResult) string {
	m, err := models.FactsOf(c)
	if err != nil || m.ReplyNote == nil {
		return ""
	}
	n := m.ReplyNote
	switch n.ReadAs {
	case "json":
		lines := strings.Count(n.TextBefore, "\n") + 1
		return fmt.Sprintf("reply read from the last line of stdout; %s of text before it kept as a note (response_metadata.reply_note), not scored",
			show.Count(lines, "line", "lines"))
	case "text":
		return "reply read and scored as PLAIN TEXT although it holds a JSON object (response_metadata.reply_note says why)"
	}
	return ""
}

// writeReplyWarnings tells on stderr how many replies were not one Response
// object as a whole, and how to make that a case error.
func writeReplyWarnings(w io.Writer, run *models.Run) {
	var asJSON, asText []string
	for _, c := range run.Cases {
		m, err := models.FactsOf(c)
		if err != nil || m.ReplyNote == nil {
			continue
		}
		id := clip(sanitize.EscapeText(c.CaseID), 40)
		if m.ReplyNote.ReadAs == "json" {
			asJSON = append(asJSON, id)
		} else {
			asText = append(asText, id)
		}
	}
	if len(asJSON) > 0 {
		fmt.Fprintf(w, "warning: the agent printed text before its JSON reply on %s (%s): the last line was read as the reply, the text kept as a note; write logs to stderr, or set agent.reply to \"json\" to refuse such replies\n",
			questions(len(asJSON)), listSome(asJSON))
	}
	if len(asText) > 0 {
		fmt.Fprintf(w, "warning: on %s (%s) the reply holds a JSON object but was read and scored as plain text; see response_metadata.reply_note, and set agent.reply to \"json\" to make such replies case errors\n",
			questions(len(asText)), listSome(asText))
	}
}

// listSome joins the first few ids, saying how many more there are.
func listSome(ids []string) string {
	const n = 5
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:n], ", ") + fmt.Sprintf(" and %d more", len(ids)-n)
}
