package log

import htmltpl "html/template"

// Page renders events into Layout, parsed by the caller:
//
//	layout := template.Must(template.ParseGlob("*.html"))
//	page := &log.Page{Layout: layout}
type Page struct {
	Layout *htmltpl.Template
}
