package report

import (
	"crypto/sha256"
	"encoding/base64"
	htmltemplate "html/template"
	"io"

	"github.com/agentevals-go/agentevals/compare"
)

// htmlPage is the data of the HTML template: the view plus the stylesheet
// and the Content-Security-Policy that allows exactly that stylesheet.
type htmlPage struct {
	*view
	Style htmltemplate.CSS
	CSP   string
}

// renderHTML writes a standalone page: no scripts, no external assets, one
// inline stylesheet whitelisted by hash in a strict CSP meta tag, every
// untrusted string escaped by html/template.
func (r *Renderer) renderHTML(w io.Writer, c *compare.Comparison) error {
	sum := sha256.Sum256([]byte(r.tmpl.css))
	page := htmlPage{
		view:  newView(c, viewHTML),
		Style: htmltemplate.CSS(r.tmpl.css), // our own embedded file, not data
		CSP: "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) +
			"'; img-src 'none'; base-uri 'none'; form-action 'none'",
	}
	return r.tmpl.html.Execute(w, page)
}
