package dashboard

import (
	"bufio"
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/agentevals-go/agentevals/internal/jsonindent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// maxShownBytes is how much of a long field (an agent's answer) a case
// page shows; the rest is one click away as a download, so that a page
// for a run with 20 MB answers stays small and fast.
const maxShownBytes = 64 << 10

// maxShownPromptBytes is how much of a rebuilt judge message a case page
// shows: it repeats the question, expected answer and answer shown above.
const maxShownPromptBytes = 16 << 10

// shortened cuts s to maxShownBytes at a character boundary and says
// whether it did.
func shortened(s string) (string, bool) { return shortenedTo(s, maxShownBytes) }

// shortenedTo cuts s to n bytes at a character boundary and says whether
// it did.
func shortenedTo(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// caseOutput serves a case's whole output column as a JSON download:
// the value the case page shortens.
// Only that one value is read, and at most wholeDownloads at a time.
func (s *Server) caseOutput(c *gin.Context) error {
	ctx := c.Request.Context()
	id, err := parseRunID(c.Param("id"))
	if err != nil {
		return err
	}
	pos, err := strconv.Atoi(c.Param("pos"))
	if err != nil || pos < 0 {
		return notFound("There is no such case in this run.")
	}
	release, err := s.holdWhole(ctx)
	if err != nil {
		return err
	}
	defer release()
	var outputs []models.JSON
	err = s.db.NewSelect().Model((*models.CaseResult)(nil)).Column("c.output").
		Where("c.run_id = ?", id).Where("c.position = ?", pos).Scan(ctx, &outputs)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return unavailable(err)
	}
	if len(outputs) == 0 {
		return notFound("There is no such case in this run.")
	}
	body := []byte(outputs[0])
	if outputs[0].IsSQLNull() {
		body = []byte("null")
	}
	c.Header("Content-Disposition", fmt.Sprintf(`attachment; filename="run-%s-case-%d-output.json"`, id, pos))
	c.Header("Cache-Control", "no-store")
	c.Data(http.StatusOK, "application/json; charset=utf-8", body)
	return nil
}

// writeReportJSON streams the JSON report doc to w one case at a time:
// the document without its cases is small, and each case, as caseAt
// returns it, is encoded and written on its own, so the response is never
// held whole in memory.
func writeReportJSON(w http.ResponseWriter, doc report.Document, caseAt func(int) (report.CaseSnapshot, error)) error {
	n := len(doc.Cases)
	doc.Cases = nil
	var headBuf bytes.Buffer
	if err := jsonindent.EncodeFrom(&headBuf, doc, "", "  ", 0); err != nil {
		return fmt.Errorf("run json: %w", err)
	}
	head := headBuf.Bytes()
	const hole = `"cases": null`
	at := bytes.Index(head, []byte(hole)) // the run's cases come before the comparison's
	if at < 0 {
		return fmt.Errorf("run json: no cases in the document")
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(head[:at+len(`"cases": `)])
	bw.WriteString("[")
	for i := range n {
		cs, err := caseAt(i)
		if err != nil {
			return fmt.Errorf("run json: case %d: %w", i, err)
		}
		if i > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		var b bytes.Buffer
		if err := jsonindent.EncodeFrom(&b, cs, "    ", "  ", 2); err != nil {
			return fmt.Errorf("run json: case %d: %w", i, err)
		}
		bw.Write(b.Bytes())
	}
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]")
	bw.Write(head[at+len(hole):])
	bw.WriteString("\n")
	return bw.Flush()
}
