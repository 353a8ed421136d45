package dashboard

import (
	"errors"
	"fmt"
	"net/http"
)

// serverError is what a handler returns when the answer is not a page of
// data: a status, the text the visitor may see, and the cause, which is
// logged and never shown.
type serverError struct {
	status int
	public string
	cause  error
}

func (e *serverError) Error() string {
	if e.cause == nil {
		return fmt.Sprintf("%d %s", e.status, e.public)
	}
	return fmt.Sprintf("%d %s: %v", e.status, e.public, e.cause)
}

func (e *serverError) Unwrap() error { return e.cause }

// notFound is a 404 with a public message.
func notFound(public string) error {
	return &serverError{status: http.StatusNotFound, public: public}
}

// badRequest is a 400 whose message says which input was refused.
func badRequest(public string) error {
	return &serverError{status: http.StatusBadRequest, public: public}
}

// unavailable is a 503 for database failures; the cause is only logged.
func unavailable(cause error) error {
	return &serverError{status: http.StatusServiceUnavailable,
		public: "The evaluation history is not available right now. Try again later.", cause: cause}
}

// asServerError maps any handler error to a serverError; errors that are not
// typed become 500s whose cause is logged and never shown.
func asServerError(err error) *serverError {
	var se *serverError
	if errors.As(err, &se) {
		return se
	}
	return &serverError{status: http.StatusInternalServerError,
		public: "Something went wrong while rendering this page.", cause: err}
}

// unprocessable is a 422 for a request that names existing data that
// cannot be shown as asked (runs of different definitions side by side).
func unprocessable(public string) error {
	return &serverError{status: http.StatusUnprocessableEntity, public: public}
}
