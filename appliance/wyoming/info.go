package wyoming

// attribution credits a program or model, as info requires of each.
type attribution struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type asrModel struct {
	Name        string      `json:"name"`
	Languages   []string    `json:"languages"`
	Attribution attribution `json:"attribution"`
	Installed   bool        `json:"installed"`
	Description string      `json:"description"`
	Version     string      `json:"version"`
}

type asrProgram struct {
	Name        string      `json:"name"`
	Attribution attribution `json:"attribution"`
	Installed   bool        `json:"installed"`
	Description string      `json:"description"`
	Version     string      `json:"version"`
	Models      []asrModel  `json:"models"`
}

// info describes the one speech-to-text service: the appliance's speech
// routes, whichever serve the language asked for. Home Assistant offers
// the languages listed here.
func (s *Server) info() map[string]any {
	langs := []string{}
	if s.Languages != nil {
		langs = append(langs, s.Languages()...)
	}
	credit := attribution{Name: "Hearth", URL: "https://github.com/hearth-appliance/hearth"}
	return map[string]any{"asr": []asrProgram{{
		Name: "hearth", Attribution: credit, Installed: true, Version: s.Version,
		Description: "Hearth's speech routes",
		Models: []asrModel{{
			Name: "hearth", Languages: langs, Attribution: credit, Installed: true, Version: s.Version,
			Description: "The appliance's speech routes, in the order the owner set",
		}},
	}}}
}
