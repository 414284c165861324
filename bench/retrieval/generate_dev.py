"""An eighth retrieval benchmark: a software developer and a coding assistant with memory (dev.json).

Written by the Mnemo team for this repository (no outside data; the repository's licence) after
the seven other sets had been read; nothing is fitted on it and nobody has searched it. It is kept
in reserve, unread, to judge a candidate search rule registered before it is read
(``holdout.py --dataset dev``); a choice made after looking at it makes it a tuning set.

How it differs from the seven others: the domain is a developer's tooling, where every project has
the same kinds of facts in the same words ("tests", "deploy", "version", "branch", "port",
"database"), and the values that tell them apart are identifiers, version numbers and paths
(``pnpm-lock.yaml``, ``3.12``, ``port 8081``, ``qhl_core``, ``.buildkite/pipeline.yml``) that
keyword matching finds exactly and an embedding blurs.

- **A developer per conversation**: 10 developers at 10 companies, one namespace each, 24 to 34
  dated sessions over months with a coding assistant; turns are "Name: text" and the assistant's
  replies are turns too (speaker "Assistant").
- **Three projects each, one set of attributes**: every project has a repo, a language version, a
  framework and its version, a package manager (a build tool or task runner for Kotlin and Go), a
  test command, a CI service and its config file, a deploy target, a dev-server port, a database
  (engine and name), an API key's environment variable (its *name* and where the value is kept;
  never a value), a library chosen over another and why, an error hit and its fix, a release
  (version and date), and one extra of its own (a RabbitMQ queue, a cron job, a LaunchDarkly flag,
  an S3 bucket, a webhooks path or a gRPC port). The developer has a company and title, an
  editor, an on-call day, three teammates with roles (one the tech lead) and code-style
  preferences (tabs, line length, quotes, commit style).
- **Mixed turns**: coding requests and their answers (git commands, regexes, SQL, explanations)
  and chatter, many with the facts' words ("CI is red on the feature branch", "Deploying
  Quarryhill after lunch"); the assistant's reply to a fact at times echoes its value ("Noted:
  pnpm-lock.yaml."), at times paraphrases it ("I'll point local examples for Quarryhill at
  localhost:8081."), and at times suggests a tool the developer turns down (the "assistant only"
  trap).
- **Dates and updates**: releases are dated (absolute or relative to the session), errors and
  changes are dated in the past ("yesterday", "on 3 May"); four facts change per developer (a
  language upgrade, a package manager switch, a port, a CI or deploy move, the editor, the on-call
  day, the tech lead): first said in the first third of the sessions, changed in the last third,
  the later turn not naming the old value; the update question's evidence is the later turn only,
  a multi-hop history question holds both.
- Question types as holdout.TYPES, never-stored ones (``adversarial``, no evidence; ``never``:
  "never said", a key term said nowhere in the conversation; "other project's", an extra only
  another project has, asked about the wrong project in the owner's words; "assistant only",
  something only the assistant suggested). Half the questions of each type are in the turn's
  words and half paraphrased (no shared content word but names and identifiers); some ask for an
  identifier verbatim ("Which project's dev server runs on port 8081?"); open-domain ones are
  inferences, worded apart.

Names (developers, teammates, companies, projects) are disjoint from the seven other sets (a test
checks both ways). Seeded and deterministic (sha256 printed).

    .venv/bin/python -m bench.retrieval.generate_dev
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.retrieval.generated import halves, pick, write

OUT = Path(__file__).with_name("dev.json")
SEED = 8028
CONVERSATIONS = 10
PROJECTS = 3  # per developer
ASSISTANT = "Assistant"
#: questions per developer and type (10 developers: 480 in all)
PER_CONVERSATION = {"single-hop": 12, "multi-hop": 6, "temporal": 6, "open-domain": 5, "knowledge-update": 5,
                    "preference": 4}  # fmt: skip
NEVER_KINDS = {"never said": 5, "other project's": 3, "assistant only": 2}
UPDATES_PER_DEVELOPER = 4

DEVELOPERS = ["Benedek", "Dorottya", "Folasade", "Gunnhild", "Jorunn", "Kazimierz", "Lisandro", "Nkechi", "Oriol",
              "Svanhild", "Teodoro", "Wojciech", "Ysolde", "Zbigniew"]  # fmt: skip
FIRST = ["Signe", "Marit", "Bogdan", "Xavier", "Yevgenia", "Halvard", "Ciprian", "Wiebke", "Lorcan", "Mehmet",
         "Valentina", "Jakub", "Ayasha", "Kalani", "Viggo", "Cosmin", "Ruairi", "Zofia", "Imogen", "Pascale",
         "Lionel", "Giedre", "Bartosz", "Cecily", "Elspeth", "Fabrizio", "Gudrun", "Iolanthe", "Joaquim",
         "Ludovica", "Nikolaj", "Oona", "Stellan", "Tuva", "Urszula", "Vesna", "Yrsa", "Zoran", "Agnetha",
         "Dagfinn", "Eskil", "Filippa", "Gorka", "Henrike", "Jarle", "Lasse"]  # fmt: skip
LAST = ["Vasilescu", "Quintanilla", "Lindahl", "Petrescu", "Carvalho", "Okafor", "Sokol", "Ferncastle", "Horvat",
        "Kiefer", "Venkataraman", "Zelenko", "Myhre", "Haddadin", "Moldovan", "Hartmann", "Whelan", "Aksoy",
        "Ricci", "Dvorak", "Guerin", "Makoa", "Ferreira", "Sandvik", "Gallagher", "Wrona", "Carrow", "Kazlauskas",
        "Szczepanik", "Abernethy", "Balogun", "Castellvi", "Dziedzic", "Eriksdotter", "Gasparyan", "Holmqvist",
        "Ibarguren", "Jankowska", "Kovacic", "Lundgren", "Marchetti", "Nwachukwu", "Oyelowo", "Pavlenko",
        "Radulescu", "Tomaszewski"]  # fmt: skip
# (company, its repo org, what it makes in the turn, open-domain question)
COMPANIES = [("Vellichor", "vellichor", "booking software for dental practices",
              "Are clinics among the customers of {n}'s employer?"),
             ("Pallmark", "pallmark", "claims handling software for car insurers",
              "Does {n}'s employer sell to insurance firms?"),
             ("Kettlewick", "kettlewick", "ordering apps for restaurant chains",
              "Is {n}'s employer in the food-service software business?"),
             ("Driftmoor", "driftmoor", "analytics for wind farms", "Does {n}'s employer work in renewable energy?"),
             ("Sablecrest", "sablecrest", "a mobile bank for freelancers", "Does {n} work in fintech?"),
             ("Corvane", "corvane", "multiplayer puzzle games", "Does {n} work in the games industry?"),
             ("Oxenhope", "oxenhope", "route planning for freight lorries", "Is {n}'s employer in logistics?"),
             ("Lumenreach", "lumenreach", "smart meter software for energy suppliers",
              "Does {n}'s employer serve utility companies?"),
             ("Calloway", "calloway", "ticketing for concerts and festivals",
              "Does {n}'s employer sell admission to live music?"),
             ("Thornbury", "thornbury", "point-of-sale systems for bookshops",
              "Do shop tills run {n}'s employer's product?"),
             ("Halyard", "halyard", "payroll software for small businesses",
              "Does {n}'s employer help firms pay their staff?"),
             ("Tidemill", "tidemill", "online courses for nurses",
              "Is {n}'s employer in healthcare education?")]  # fmt: skip
TITLES = ["backend engineer", "staff engineer", "full-stack developer", "platform engineer",
          "senior software engineer", "principal engineer"]  # fmt: skip
# (project, its three-letter abbreviation in identifiers)
PROJECT_NAMES = [("Quarryhill", "qhl"), ("Tidewell", "tdw"), ("Marrowind", "mrw"), ("Saltfern", "sfn"),
                 ("Emberlane", "eml"), ("Cobaltine", "cbt"), ("Rookstone", "rks"), ("Fernspire", "fsp"),
                 ("Glimmerhook", "ghk"), ("Ironvale", "ivl"), ("Juniperline", "jnl"), ("Slatewick", "swk"),
                 ("Lanternfish", "lfs"), ("Moonrake", "mnr"), ("Nettlebank", "ntb"), ("Oakhollow", "okh"),
                 ("Pebblewick", "pbw"), ("Quicksilt", "qst"), ("Ravenmoss", "rvm"), ("Stormcrest", "stc"),
                 ("Thistlegate", "tsg"), ("Umberfold", "ubf"), ("Vesperline", "vsp"), ("Willowmere", "wlm"),
                 ("Zephyrine", "zph"), ("Brindlecote", "bdc"), ("Copperhythe", "cph"), ("Dunlinford", "dlf"),
                 ("Eskerdale", "esk"), ("Foxhollow", "fxh"), ("Gorsebeck", "gsb"), ("Larchmont", "lcm"),
                 ("Mossgrove", "msg"), ("Northwick", "nwk"), ("Owlbridge", "obr")]  # fmt: skip
# (what the project is, the repo's suffix)
KINDS = [("billing API", "api"), ("admin dashboard", "admin"), ("ingestion worker", "ingest"),
         ("mobile backend", "mobile-bff"), ("search service", "search"), ("internal CLI", "cli"),
         ("notification service", "notify"), ("reporting pipeline", "reports"), ("customer portal", "portal"),
         ("pricing engine", "pricing")]  # fmt: skip
HOSTS = ["github.com", "gitlab.com", "codeberg.org", "bitbucket.org"]

# per language: its name in the turns, a paraphrase, (before, after) version pairs, frameworks
# (name, versions, open-domain question), tools (name, file), the tool's noun, its file's noun, the
# tool's question paraphrased, the file's question paraphrased, test commands (by tool, or "*")
LANGS: dict[str, dict[str, Any]] = {
    "Python": {
        "lang": "Python", "langp": "interpreter", "versions": [("3.11", "3.12"), ("3.12", "3.13"), ("3.10", "3.12")],
        "frameworks": [("Django", ["4.2", "5.0", "5.1"], "Does {p} come with a built-in admin site?"),
                       ("FastAPI", ["0.110", "0.115"], "Are {p}'s API docs generated from type annotations?"),
                       ("Flask", ["2.3", "3.0"], "Is {p} built on a microframework?")],
        "tools": [("Poetry", "poetry.lock"), ("uv", "uv.lock"), ("PDM", "pdm.lock"), ("pipenv", "Pipfile.lock")],
        "tool": "package manager", "toolp": "dependency installer", "file": "lockfile",
        "filep": "pinned-requirements document",
        "tests": {"*": ["pytest -x -n auto", "pytest --reuse-db -q", "pytest -m 'not slow' -p no:cacheprovider",
                        "python -m pytest tests/unit -q"]},
    },
    "TypeScript": {
        "lang": "Node", "langp": "JavaScript runtime", "versions": [("18", "20"), ("20", "22")],
        "frameworks": [("Next.js", ["14.1", "14.2"], "Does {p} render React pages on the server?"),
                       ("NestJS", ["10.2", "10.3"], "Does {p} wire its classes together with decorators and "
                        "dependency injection?"),
                       ("Express", ["4.18", "4.19"], "Is {p} a minimal Node web server built from middleware?"),
                       ("Fastify", ["4.26", "4.28"], "Does {p} check its routes' payloads against JSON schemas?")],
        "tools": [("npm", "package-lock.json"), ("pnpm", "pnpm-lock.yaml"), ("Yarn", "yarn.lock"),
                  ("Bun", "bun.lockb")],
        "tool": "package manager", "toolp": "dependency installer", "file": "lockfile",
        "filep": "pinned-requirements document",
        "tests": {"*": ["vitest run --reporter=dot", "jest --runInBand --ci", "playwright test --project=chromium",
                        "mocha 'test/**/*.spec.ts'"]},
    },
    "Kotlin": {
        "lang": "Kotlin", "langp": "JVM language compiler", "versions": [("1.9", "2.0"), ("2.0", "2.1")],
        "frameworks": [("Spring Boot", ["3.2", "3.3"], "Does {p} rely on auto-configuration from starters?"),
                       ("Ktor", ["2.3", "3.0"], "Is {p}'s server built around coroutines?"),
                       ("Micronaut", ["4.4", "4.5"], "Does {p} do its dependency injection at compile time?")],
        "tools": [("Gradle", "build.gradle.kts"), ("Maven", "pom.xml")],
        "tool": "build tool", "toolp": "compiling and packaging program", "file": "build file", "filep": "build script",
        "tests": {"Gradle": ["./gradlew test --info", "./gradlew check -x detekt"],
                  "Maven": ["mvn -q verify", "mvn test -Dtest='*IT'"]},
    },
    "Go": {
        "lang": "Go", "langp": "compiler toolchain", "versions": [("1.21", "1.22"), ("1.22", "1.23")],
        "frameworks": [("Gin", ["1.9", "1.10"], "Does {p} compile to a single static binary?"),
                       ("Echo", ["4.11", "4.12"], "Does {p} ship as one compiled executable?"),
                       ("chi", ["5.0", "5.1"], "Is {p}'s router compatible with the standard net/http handlers?")],
        "tools": [("make", "Makefile"), ("just", "justfile"), ("Task", "Taskfile.yml")],
        "tool": "task runner", "toolp": "chore-running program", "file": "task file", "filep": "recipe document",
        "tests": {"*": ["go test ./... -race", "gotestsum --format testname", "go test -count=1 ./internal/..."]},
    },
}  # fmt: skip
# languages whose tool can change without its test command changing
SWITCHABLE = ("Python", "TypeScript", "Go")

# (error as it is printed, its short form, paraphrase, the fix)
ERRORS: dict[str, list[tuple[str, str, str, str]]] = {
    "Python": [("RuntimeError: Event loop is closed", "Event loop is closed", "async teardown crash in the suite",
                "setting asyncio_mode to auto for pytest-asyncio"),
               ("ImportError: cannot import name 'soft_unicode' from 'markupsafe'", "soft_unicode",
                "templating dependency failing to load", "pinning markupsafe to 2.0.1"),
               ("ssl.SSLCertVerificationError: certificate verify failed", "SSLCertVerificationError",
                "TLS handshake failure calling a partner", "installing certifi and pointing SSL_CERT_FILE at it"),
               ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9", "UnicodeDecodeError",
                "file read broken by an accented character", "opening the export with encoding='cp1252'")],
    "TypeScript": [("Error [ERR_REQUIRE_ESM]: require() of ES Module", "ERR_REQUIRE_ESM",
                    "module-format clash when loading a dependency", "setting type to module in package.json"),
                   ("FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
                    "heap out of memory", "build crash for lack of RAM", "raising --max-old-space-size to 4096"),
                   ("TS2307: Cannot find module '@/lib/db'", "TS2307", "unresolved import alias at compile time",
                    "adding the paths alias to tsconfig.json"),
                   ("TypeError: fetch failed (cause: ETIMEDOUT)", "ETIMEDOUT", "timeout on an outbound request",
                    "forcing IPv4 with --dns-result-order=ipv4first")],
    "Kotlin": [("java.lang.OutOfMemoryError: Metaspace", "OutOfMemoryError: Metaspace",
                "exhausted class-metadata storage in the JVM", "raising -XX:MaxMetaspaceSize to 512m"),
               ("Unsupported class file major version 65", "major version 65",
                "failure from bytecode too new for the toolchain", "moving the toolchain to JDK 21"),
               ("kotlinx.coroutines.JobCancellationException: Job was cancelled", "JobCancellationException",
                "cancellation of a coroutine mid-request", "launching the work in a SupervisorJob scope"),
               ("java.net.SocketTimeoutException: Read timed out", "SocketTimeoutException",
                "abandoned slow upstream call", "raising the client's read timeout to 30 seconds")],
    "Go": [("panic: assignment to entry in nil map", "assignment to entry in nil map",
            "crash writing to an uninitialised lookup table", "initialising the map with make() in the constructor"),
           ("fatal error: all goroutines are asleep - deadlock!", "all goroutines are asleep",
            "hang forever on channels", "buffering the results channel"),
           ("x509: certificate signed by unknown authority", "x509", "TLS trust failure inside the container",
            "adding ca-certificates to the Docker image"),
           ("go: updates to go.mod needed", "updates to go.mod needed", "stale module manifest",
            "running go mod tidy")],
}  # fmt: skip
# (purpose, library, the one it beat, why, paraphrase of the purpose, open-domain question)
LIBS: dict[str, list[tuple[str, str, str, str, str, str]]] = {
    "Python": [("HTTP client", "httpx", "requests", "it does async", "package for outbound web calls",
                "Can {p}'s outbound web calls be awaited?"),
               ("task queue", "Dramatiq", "Celery", "Celery's settings were too much for a small team",
                "background job runner", "Does {p} process work outside the request cycle?"),
               ("settings loader", "pydantic-settings", "python-decouple", "we want typed config with validation",
                "configuration reader", "Are {p}'s config values type-checked at startup?"),
               ("PDF renderer", "WeasyPrint", "ReportLab", "our templates are already HTML and CSS",
                "document export package", "Does {p} produce documents from web templates?")],
    "TypeScript": [("ORM", "Drizzle", "Prisma", "there is no code generation step", "database access layer",
                    "Does {p} query its data without a generated client?"),
                   ("validation library", "Zod", "Yup", "the types come for free", "schema checker",
                    "Does {p} infer static types from its input schemas?"),
                   ("date library", "date-fns", "Moment", "Moment is in maintenance mode", "time-handling package",
                    "Does {p} use a date package that is still actively developed?"),
                   ("logger", "pino", "winston", "it is faster and writes JSON", "logging package",
                    "Does {p} write structured JSON logs?")],
    "Kotlin": [("JSON library", "kotlinx.serialization", "Jackson", "there is no reflection at runtime",
                "serialisation package", "Does {p} parse JSON without reflection?"),
               ("database layer", "Exposed", "Hibernate", "we want a typed SQL DSL rather than lazy-loading magic",
                "data access package", "Does {p} build its queries in a type-safe Kotlin DSL?"),
               ("mocking library", "MockK", "Mockito", "it understands coroutines and final classes",
                "test double package", "Can {p}'s unit checks fake suspend functions?")],
    "Go": [("logger", "zerolog", "logrus", "it logs with zero allocations", "logging package",
            "Does {p} log without allocating on the hot path?"),
           ("database layer", "sqlc", "GORM", "we want plain SQL checked at compile time", "data access tool",
            "Does {p} write its queries as plain SQL?"),
           ("config library", "koanf", "Viper", "it has a smaller dependency tree", "configuration reader",
            "Did {p} pick a config package for its small footprint?"),
           ("migration tool", "dbmate", "golang-migrate",
            "it also creates the empty DB and dumps the structure to a file", "database-evolution tool",
            "Is a dump of {p}'s table definitions kept under version control?")],
}  # fmt: skip
# (CI service, its config file)
CIS = [("GitHub Actions", ".github/workflows/ci.yml"), ("GitLab CI", ".gitlab-ci.yml"),
       ("CircleCI", ".circleci/config.yml"), ("Buildkite", ".buildkite/pipeline.yml"), ("Jenkins", "Jenkinsfile"),
       ("Drone", ".drone.yml"), ("Woodpecker", ".woodpecker.yml"),
       ("Semaphore", ".semaphore/semaphore.yml")]  # fmt: skip
# (deploy target, open-domain question)
DEPLOYS = [("Fly.io", "Would shipping {p} involve a fly.toml file?"),
           ("Render", "Would {p}'s service settings live in a render.yaml blueprint?"),
           ("Heroku", "Does {p} need a Procfile to start?"),
           ("AWS ECS on Fargate", "Does {p} run as containers on Amazon's cloud without managed servers?"),
           ("Google Cloud Run", "Is {p} hosted on Google's cloud?"),
           ("a GKE cluster", "Does releasing {p} mean applying Kubernetes manifests?"),
           ("a Hetzner box running Docker Compose", "Does {p} run on a machine in a German data centre?"),
           ("AWS Lambda", "Is {p} serverless?"),
           ("Azure Container Apps", "Is {p} hosted on Microsoft's cloud?")]  # fmt: skip
# (engine, open-domain question)
ENGINES = [("PostgreSQL 16", "Can {p}'s data be queried with SQL joins?"),
           ("PostgreSQL 15", "Can {p}'s data be queried with SQL joins?"),
           ("MySQL 8.0", "Can {p}'s data be queried with SQL joins?"),
           ("MariaDB 11", "Can {p}'s data be queried with SQL joins?"),
           ("MongoDB 7", "Does {p} store documents rather than rows in tables?"),
           ("SQLite", "Does {p} keep its data in a single file?")]  # fmt: skip
DB_SUFFIXES = ["main", "app", "core", "prod", "store", "primary"]
PORTS = ["3000", "3001", "4000", "4200", "5000", "5173", "8000", "8080", "8081", "8088", "8443", "8888", "9000",
         "9090", "9292", "7070", "6060", "5050"]  # fmt: skip
# (service, the key's suffix)
SERVICES = [("Stripe", "SECRET_KEY"), ("SendGrid", "API_KEY"), ("Mapbox", "ACCESS_TOKEN"), ("Twilio", "AUTH_TOKEN"),
            ("Algolia", "ADMIN_KEY"), ("Postmark", "SERVER_TOKEN"), ("Cloudinary", "API_KEY"),
            ("Segment", "WRITE_KEY"), ("OpenAI", "API_KEY"), ("Mailgun", "API_KEY"), ("Plaid", "CLIENT_KEY"),
            ("Pusher", "APP_KEY")]  # fmt: skip
STORES = ["1Password", "Doppler", "AWS Secrets Manager", "HashiCorp Vault", "Infisical", "the CI's encrypted settings"]
# the extras, one per project of a developer: (turns, values, the word that marks it, (question in the turns'
# words, paraphrased)); "{x}" is the value
EXTRAS: dict[str, tuple[list[str], list[str], str, tuple[str, str]]] = {
    "queue": (["{p} consumes the {x} queue on RabbitMQ", "The RabbitMQ queue {p} reads from is {x}"],
              ["invoice.created", "order.shipped", "user.signup", "payment.failed", "report.requested"],
              "RabbitMQ", ("Which RabbitMQ queue does {p} consume?", "Which message-broker channel feeds work into "
                           "{p}?")),
    "cron": (["{p} has a nightly cron job at {x} UTC that rebuilds its indexes",
              "There's a cron job in {p} that runs every night at {x} UTC to expire old sessions"],
             ["02:30", "03:15", "04:00", "01:45", "05:10"],
             "cron", ("When does {p}'s nightly cron job run?", "At what hour does {p}'s scheduled overnight task "
                      "fire?")),
    "flag": (["Unfinished features in {p} sit behind the {x} flag in LaunchDarkly",
              "{p} reads the {x} flag from LaunchDarkly before showing anything new"],
             ["new-checkout-flow", "beta-ranking", "async-export", "dark-mode-v2", "bulk-invite"],
             "LaunchDarkly", ("Which LaunchDarkly flag does {p} read?", "Which toggle name gates {p}'s unreleased "
                              "work?")),
    "bucket": (["{p} writes uploads to the {x} S3 bucket", "User uploads from {p} go to the S3 bucket {x}"],
               ["{abbr}-uploads-prod", "{abbr}-media-eu", "{abbr}-exports", "{abbr}-attachments"],
               "S3", ("Which S3 bucket does {p} write uploads to?", "Where in Amazon object storage do files sent "
                      "to {p} land?")),
    "webhook": (["{p} receives partner webhooks at {x}", "Partner webhooks for {p} arrive at {x}"],
                ["/hooks/payments", "/api/v1/webhooks/inbound", "/internal/callbacks", "/webhooks/partner"],
                "webhooks", ("At which path does {p} receive webhooks?", "Which URL route takes incoming partner "
                             "callbacks for {p}?")),
    "grpc": (["{p} also exposes a gRPC API on port {x}", "The gRPC API of {p} listens on port {x}"],
             ["50051", "50052", "6565", "9443"],
             "gRPC", ("Which port does {p}'s gRPC API listen on?", "On what number does {p}'s protobuf RPC "
                      "interface answer?")),
}  # fmt: skip
EDITORS = [("VS Code", "Does {n} use an editor made by Microsoft?"),
           ("Neovim", "Does {n} move around code with vim keybindings?"),
           ("IntelliJ IDEA", "Does {n} use a JetBrains IDE?"),
           ("Emacs", "Is {n}'s editor configured in Lisp?"),
           ("Helix", "Does {n} use a modal editor written in Rust?"),
           ("Sublime Text", "Did {n} pay a licence fee for the editor?"),
           ("Zed", "Does {n} use an editor written in Rust with built-in collaboration?")]  # fmt: skip
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]  # fmt: skip
# teammates' roles: (role, the turn's detail about them, paraphrase for a question, open-domain question)
ROLES = [("SRE", "{f} looks after the Kubernetes clusters and the alerts", "keeps production running",
          "Could {t} help with a failing Kubernetes rollout?"),
         ("product manager", "{f} owns the roadmap and the priorities", "decides what gets built next",
          "Would {t} decide whether a feature makes the next release?"),
         ("QA engineer", "{f} writes the end-to-end tests and runs the regression passes",
          "checks releases for bugs before they ship", "Could {t} say whether a release passed its checks?"),
         ("designer", "{f} does the Figma mock-ups for every screen", "draws the screens",
          "Would {t} know what a new settings page should look like?"),
         ("data engineer", "{f} runs the warehouse and the dbt models", "keeps the analytics pipelines going",
          "Could {t} help with a slow transformation in the warehouse?"),
         ("security engineer", "{f} does the threat models and reviews anything touching auth",
          "vets risky changes for vulnerabilities", "Should {t} look at a change to the login flow?"),
         ("engineering manager", "{f} does the one-to-ones and the hiring", "manages the people on the team",
          "Would {n} talk to {t} about a pay rise?"),
         ("frontend developer", "{f} owns the React side of things", "builds the user interface",
          "Could {t} fix a broken CSS grid?")]  # fmt: skip

# preferences: (direct turn, indirect turn, (question in the turns' words, paraphrased), open-domain question)
PREFERENCES = [
    ("I indent with tabs, never spaces, in every project",
     "Please stop giving me space-indented code, one tab character per level for me",
     ("Does {n} indent with tabs or spaces?", "What whitespace should start nested lines in {n}'s files?"),
     "Would {n} accept a snippet indented with four spaces?"),
    ("Keep my lines under 100 characters, that's what my formatter enforces",
     "Wrap anything past a hundred columns please, longer rows fail my checks",
     ("What line length does {n} want?", "How wide may a row of source text get for {n}?"),
     "Would a 140-character one-liner be fine for {n}?"),
    ("I always use double quotes for strings, never single quotes",
     "Swap those single quotes for double ones please, that's how I write every string",
     ("Does {n} use double or single quotes for strings?", "Which quotation mark style does {n} want around text "
      "literals?"),
     "Would {n} be happy with 'hello' written in apostrophes?"),
    ("I write commit messages in the Conventional Commits style, with feat: and fix: prefixes",
     "Prefix my commit messages with feat:, fix: or chore: please, like the Conventional Commits spec",
     ("Which commit message style does {n} use?", "How does {n} word the summary of a change in version control?"),
     "Would {n} record a change titled 'stuff' with no label?"),
    ("Give me the code first and the explanation after, and keep the explanation short",
     "Skip the long intro, snippet on top and two lines of why underneath is all I want",
     ("Does {n} want the code or the explanation first?", "In what order should answers to {n} be arranged?"),
     "Would {n} enjoy a five-paragraph essay before a one-line fix?"),
    ("I want type hints on every function, no exceptions",
     "Annotate all the signatures please, untyped functions don't get past my review",
     ("Does {n} want type hints on every function?", "Must every def in {n}'s code declare its argument types?"),
     "Would {n} merge a helper whose parameters carry no declared types?"),
    ("I prefer early returns over nested if statements",
     "Flatten that please, bail out at the top instead of nesting ifs three deep",
     ("Does {n} prefer early returns or nested if statements?", "How does {n} like conditional logic structured?"),
     "Would {n} like a function with four levels of indented conditionals?"),
    ("I keep pull requests small, under 400 lines of diff",
     "Split this into smaller PRs please, anything over four hundred lines is too much to review",
     ("How big does {n} keep pull requests?", "What size limit does {n} put on changes sent for approval?"),
     "Would {n} open a single 3,000-line change for a whole feature?"),
    ("No abbreviations in variable names, I want full words like customer_count",
     "Rename cnt and usr to full words please, I hate abbreviated names",
     ("Does {n} allow abbreviations in variable names?", "How spelled-out should identifiers be for {n}?"),
     "Would {n} be fine with an identifier called usr_cnt?"),
    ("I write the tests first, then the code",
     "Start with a failing test please, I only write code once a test asks for it",
     ("Does {n} write the tests first?", "In what order does {n} do checks and implementation?"),
     "Would {n} want the implementation delivered before any checks exist?"),
    ("Comments should say why, not what, I delete comments that repeat the code",
     "Drop comments that restate the line below, only the reasons deserve a comment",
     ("What should {n}'s comments say?", "What kind of remarks in source does {n} keep?"),
     "Would {n} keep a remark saying 'increment i' above i += 1?"),
    ("No emoji anywhere, not in commits, not in docs, not in code comments",
     "Please take the emoji out, I don't want little pictures in my repo",
     ("Does {n} want emoji in commits and docs?", "Does {n} allow pictographs in version-controlled text?"),
     "Would {n} like a rocket icon at the end of release notes?"),
]  # fmt: skip

# the facts' turns (the developer's)
COMPANY = ["I'm a {title} at {company}, we make {what}", "I work at {company} as a {title}, we build {what}"]
REPO = ["The repo for {p}, our {desc}, is {repo}", "{p} is our {desc}, the code lives at {repo}"]
LVER = ["{p} runs on {lang} {lver}", "We're on {lang} {lver} for {p}"]
LVER_NEW = ["Upgraded {p} to {lang} {lver2} {w}, the whole test suite passed",
            "Bumped {p} to {lang} {lver2} {w}, no regressions so far"]  # fmt: skip
FRAMEWORK = ["{p} is built on {fw} {fver}", "The framework behind {p} is {fw}, version {fver}"]
TOOL = ["{p} uses {tool} and the {file} is {lock}", "For {p} it's {tool}, so the {file} is {lock}"]
TOOL_NEW = ["Moved {p} over to {tool2} {w}, so the repo has {lock2} now",
            "Switched {p} to {tool2} {w}, {lock2} is committed and the build is green"]  # fmt: skip
TEST = ["To run the {p} tests I use {test}", "The {p} test suite runs with {test}"]
CI = ["CI for {p} runs on {ci}, the pipeline is in {cipath}", "{p}'s CI is {ci}, config in {cipath}"]
CI_NEW = ["Migrated {p}'s CI to {ci2} {w}, the pipeline is in {cipath2} now",
          "Moved the CI of {p} to {ci2} {w}, config lives in {cipath2}"]  # fmt: skip
DEPLOY = ["{p} deploys to {dep}", "We deploy {p} to {dep}, every merge to the main branch"]
DEPLOY_NEW = ["We moved {p}'s hosting to {dep2} {w}, the first deploy went fine",
              "{p} deploys to {dep2} since we migrated it {w}, and the first deploy was smooth"]  # fmt: skip
PORT = ["{p}'s dev server runs on port {port}", "Locally {p} serves on port {port}"]
PORT_NEW = ["Moved {p}'s dev server to port {port2} {w} to stop it clashing with another service",
            "{p} runs on port {port2} locally now, I changed it {w} because another service kept taking "
            "it"]  # fmt: skip
DB = ["{p} talks to {engine}, the database is called {dbname}", "{p}'s data is in {engine}, database name {dbname}"]
ENV = ["{p} reads its {service} key from the {var} environment variable, the value lives in {store}",
       "The {service} key for {p} comes from the {var} env var, and the value itself is kept in {store}"]  # fmt: skip
LIB = ["For {p}'s {purpose} we went with {lib} over {alt}, because {reason}",
       "{p} uses {lib} as its {purpose}, we picked it over {alt} since {reason}"]  # fmt: skip
ERROR = ["Hit {err} in {p} {w}, fixed it by {fix}", "{p} was throwing {err} {w}; the fix was {fix}"]
RELEASE = ["{p} {rel} goes out {w}", "We're releasing {p} {rel} {w}, the changelog is nearly done"]
EDITOR = ["I code in {editor} most of the day", "My editor is {editor}, with a light theme"]
EDITOR_NEW = ["Switched to {editor2} {w}, still learning the shortcuts",
              "I've moved to {editor2} for everything since {w}"]  # fmt: skip
ONCALL = ["I'm on call every {oday} this quarter", "{oday} is my on-call day, so I keep it light on meetings"]
ONCALL_NEW = ["My on-call shift is on {oday2}s from now on, the rota got reshuffled",
              "The rota changed: I'm on call on {oday2}s now"]  # fmt: skip
MATE = ["{t} is our {role}, {detail}", "Our {role} is {t}, {detail}"]
LEAD = ["{lead} is our tech lead, {lead_f} signs off on architecture changes",
        "Our tech lead is {lead}, {lead_f} signs off on architecture changes"]  # fmt: skip
LEAD_NEW = ["{lead2} took over as our tech lead {w}, {lead2_f} came from the platform team",
            "We have a new tech lead since {w}: {lead2}, who came from the platform team"]  # fmt: skip
LEADS = ["Quick one: ", "For the record, ", "Note for later: ", "Context for you: ", "FYI, ", "", "", "", ""]
TAILS = [" Thanks.", " Cheers.", "", "", "", ""]
# a fact's turn starting with one of these may be lower-cased after a lead-in
LOWER_OK = ("The", "Our", "My", "Upgraded", "Bumped", "Moved", "Switched", "Migrated", "We", "We're", "For", "To",
            "Hit", "Locally", "There's", "Unfinished", "User", "Partner", "Please", "Keep", "Give", "Wrap", "Swap",
            "Prefix", "Skip", "Annotate", "Flatten", "Split", "Rename", "Start", "Drop", "Comments", "No")  # fmt: skip

# the assistant's reply to a fact: at times it echoes the value, at times it restates the fact
ECHO = ["Noted: {w}.", "Got it, {w}.", "Saved {w} to your project notes.", "{w}, noted.",
        "Okay, I'll remember {w}."]  # fmt: skip
ACKS = ["Okay, noted.", "Got it.", "Noted.", "Understood.", "Thanks, I'll keep that in mind."]
RESTATE = {
    "repo": "So {p}'s code is at {repo}, I'll use that in links.",
    "lver": "Okay, I'll keep {p}'s code compatible with {lang} {lver}.",
    "fw": "Good to know, I'll write {fw} idioms for {p}.",
    "tool": "I'll give you {tool} commands for {p} then.",
    "test": "I'll suggest {test} when you want {p}'s tests run.",
    "ci": "Understood, {p}'s pipeline is on {ci}.",
    "deploy": "So {p} ships to {dep}, noted.",
    "port": "I'll point local examples for {p} at localhost:{port}.",
    "db": "Okay, {p} talks to {dbname} on {engine}.",
    "env": "I'll refer to {var} and never ask for the value itself.",
    "lib": "{lib} over {alt} for {p}, makes sense.",
    "error": "Glad that's sorted, that one bites a lot of people.",
    "release": "I'll keep {p} {rel} in mind.",
    "extra": "Good to know how {p} is wired.",
    "company": "Nice, say hi to everyone at {company}.",
    "editor": "I'll format tips for {editor} then.",
    "oncall": "I'll keep {oday}s in mind.",
    "mate": "Noted, {t} is the {role}.",
    "lead": "Noted, {lead} is the tech lead.",
}

# filler: a request or some chatter, and the assistant's reply
CHAT = [
    ("How do I undo my last commit but keep the changes?", "git reset --soft HEAD~1 keeps them staged."),
    ("What's the difference between a merge and a rebase again?", "A merge keeps both histories and adds a merge "
     "commit; a rebase replays your commits on top, so the history stays linear."),
    ("The tests are flaky again on my branch", "Flaky tests usually mean shared state or timing. Paste the failing "
     "one and I'll look."),
    ("CI is red on the feature branch, probably lint", "Send me the log and I'll find the failing step."),
    ("Deploy went out fine this morning", "Nice, a quiet deploy is the best kind."),
    ("Write a one-liner to find the ten biggest files in a directory", "du -ah . | sort -rh | head -n 10"),
    ("Explain a race condition in two sentences", "Two pieces of code touch shared state and the result depends on "
     "who gets there first. Locks or immutability are the usual cures."),
    ("Can you review this function for off-by-one errors?", "Sure, paste it in. I'll check the loop bounds and the "
     "slice ends first."),
    ("Generate a docstring for a retry helper with exponential backoff", "Retry a callable with exponential "
     "backoff: waits base * 2**attempt seconds between tries, up to max_attempts, and re-raises the last error."),
    ("Long day of code review, my eyes hurt", "Take a break, the diffs will still be there."),
    ("What's a good name for a function that checks if a user can edit a document?", "can_edit_document reads "
     "well at the call site."),
    ("How do I cherry-pick a commit onto the release branch?", "Check out the release branch, then git cherry-pick "
     "the commit's hash."),
    ("Bumped the version in the changelog", "Noted, don't forget the tag."),
    ("Is it worth writing tests for a throwaway script?", "If it touches data you care about, a couple of checks "
     "are cheap insurance."),
    ("Remind me what idempotent means", "Calling it twice has the same effect as calling it once."),
    ("Migration took ages on staging", "Big table rewrites do that; adding the column as nullable first usually "
     "helps."),
    ("Can you turn this nested loop into a list comprehension?", "Paste it and I'll rewrite it."),
    ("I need a SQL query for the top five customers by revenue", "SELECT customer_id, SUM(amount) AS revenue FROM "
     "orders GROUP BY customer_id ORDER BY revenue DESC LIMIT 5;"),
    ("Why is my branch 40 commits behind main?", "Others merged while you worked; rebase or merge main in to catch "
     "up."),
    ("Morning! Let's get going", "Morning. What are we working on?"),
    ("Thanks, that fixed it", "Great, glad it worked."),
    ("Explain dependency injection like I'm tired", "Instead of building what it needs, a function gets it handed "
     "in, so tests can hand in fakes."),
    ("What does HTTP 409 mean?", "Conflict: the request clashes with the current state, like a duplicate or a "
     "stale version."),
    ("Write a bash loop that retries curl five times", "for i in 1 2 3 4 5; do curl -fsS \"$URL\" && break; "
     "sleep 2; done"),
    ("The linter is complaining about unused imports again", "Most formatters can drop them for you on save."),
    ("Can you summarise this stack trace?", "Paste it; I'll start from the last frame in your own code."),
    ("How do I squash the last three commits?", "git rebase -i HEAD~3, then mark the last two as squash."),
    ("What's the difference between a process and a thread?", "Processes have their own memory; threads share one "
     "process's memory."),
    ("Standup ran long again", "Classic. Anything from it you want me to note?"),
    ("Need to write the release notes", "Give me the merged PR titles and I'll draft them."),
    ("Can you explain what a mutex is?", "A lock only one thread can hold at a time, so shared data changes one "
     "writer at a time."),
    ("I keep forgetting how to rename a git branch", "git branch -m old-name new-name, then push the new one and "
     "delete the old one on the remote."),
    ("Write a quick test for a function that adds two numbers", "def test_add(): assert add(2, 3) == 5"),
    ("Is UTC the right choice for timestamps in the database?", "Yes: store UTC, convert at the edges."),
    ("The build is slow today", "Could be a cold cache. Is it slow every run or only the first?"),
    ("Code review feedback was brutal", "Sorry. Want help working through the comments?"),
    ("What's semantic versioning in one line?", "MAJOR.MINOR.PATCH: breaking changes, new features, fixes."),
    ("Friday, no deploys today", "Wise. Enjoy the weekend."),
    ("How do I see which process is using a port?", "lsof -i with the port number, or ss -ltnp on Linux."),
    ("Can you convert this JSON to YAML?", "Sure, paste it."),
    ("My local database is out of sync with the migrations", "Reset it and run the migrations from scratch if the "
     "data doesn't matter."),
    ("Lunch, back in an hour", "Enjoy."),
    ("Write a rough regex for an email address", "A rough one: ^[^@ ]+@[^@ ]+\\.[^@ ]+$, good enough for a form "
     "check."),
    ("Hotfix branch merged", "Nice. Remember to merge it back into main."),
    ("What does a 502 from the load balancer usually mean?", "The upstream app didn't answer properly: crashed, "
     "timed out or not listening."),
    ("Can you write a commit message for a typo fix?", "fix: correct typo in the README"),
    ("The staging environment is down again", "Is it the app or the database? Logs first."),
    ("Explain eventual consistency briefly", "Nodes may disagree for a moment, but they converge once writes stop."),
    ("Which is faster in Python, a tuple or a list?", "Tuples are a bit faster to create and smaller; the "
     "difference rarely matters."),
    ("Can you explain what a goroutine leak looks like?", "Goroutines blocked forever on a channel nobody reads; "
     "their count keeps climbing."),
    ("What's the TypeScript way to make a field optional?", "Add a question mark: name?: string."),
]  # fmt: skip
# filler naming a project or a teammate
PROJECT_CHAT = [
    ("Spent the morning on {p}, mostly tidying old branches", "Sounds productive. Anything left to merge?"),
    ("{p}'s tests took forever today", "Want me to find the slowest ones?"),
    ("Need to bump a few dependency versions in {p} this week", "I can draft an upgrade checklist for {p}."),
    ("Deploying {p} after lunch", "Good luck, ping me if anything looks off."),
    ("Reviewing a big PR on {p}", "Want me to summarise the diff?"),
    ("{p} is behaving today, for once", "Enjoy it while it lasts."),
    ("Writing docs for {p}", "Happy to proofread when you're done."),
    ("Found a weird bug in {p}, will look tomorrow", "Write down the steps to reproduce before you forget."),
    ("Refactoring the config loading in {p}", "Keep the old behaviour covered by a test first."),
    ("{p} had a slow database query in the logs", "Run EXPLAIN on it and check for a missing index."),
    ("Merged the version bump for {p}", "Nice, one less branch."),
    ("Can you help me name a new module in {p}?", "Tell me what it does and I'll suggest a few."),
    ("Pairing with {t} on {p} this afternoon", "Have fun. Want a checklist for the session?"),
    ("{t} left a lot of comments on my PR", "Want help working through them?"),
    ("{t} is out this week, so reviews are slow", "I can do a first pass on anything you want reviewed."),
    ("Had a good design chat with {t}", "Nice. Want me to write up the decisions?"),
]  # fmt: skip

# things only the assistant suggests: (the word that marks it, the assistant's turn, (question in its
# words, paraphrased))
SUGGESTIONS = [
    ("Renovate", "You could add Renovate to {p} so dependency bumps arrive as pull requests.",
     ("How often does Renovate open pull requests on {p}?", "On what schedule does a bot bump {p}'s packages?")),
    ("Storybook", "Want me to set up Storybook for {p}'s components?",
     ("Which port does Storybook run on for {p}?", "Where does {p}'s component gallery run?")),
    ("OpenTelemetry", "Adding OpenTelemetry tracing to {p} would show where the slow requests go.",
     ("Where does {p} export its OpenTelemetry traces?", "Which backend receives {p}'s distributed spans?")),
    ("Stryker", "You might try mutation testing on {p} with Stryker.",
     ("What mutation score does Stryker report for {p}?", "How many mutants survive in {p}'s suite?")),
    ("pre-commit", "I could write a pre-commit config for {p} with your formatter and linter hooks.",
     ("Which hooks does {p}'s pre-commit config run?", "What checks fire in {p} before each change is recorded?")),
    ("devcontainer", "A devcontainer for {p} would make onboarding new people faster.",
     ("Which base image does {p}'s devcontainer use?", "What image does {p}'s containerised workspace start from?")),
]  # fmt: skip
DECLINES = ["Not now, thanks.", "Maybe later, the backlog is long enough.", "No, let's keep it lean.",
            "Hmm, not this quarter.", "I'll think about it, don't set anything up yet."]  # fmt: skip
ASKS = ["Any ideas to make {p} nicer to work on?", "What would you improve in {p}'s tooling?",
        "Anything missing from {p}'s setup?"]  # fmt: skip

# questions: (in the turns' words, paraphrased)
SINGLE = {
    "repo": ("Where is the repo for {p}?", "At which URL is {p}'s source hosted?"),
    "repo_rev": ("Which project is in the {slug} repo?", "What does the {slug} repository contain?"),
    "lver": ("Which {lang} version does {p} run on?", "Which {langp} release does {p} target?"),
    "fw": ("Which framework is {p} built on?", "What web toolkit underlies {p}?"),
    "fver": ("Which version of {fw} is {p} on?", "What {fw} release does {p} use?"),
    "tool": ("Which {tool_} does {p} use?", "Which {toolp} does {p} rely on?"),
    "test": ("What command runs the {p} tests?", "How does {n} start {p}'s suite locally?"),
    "ci": ("Which CI does {p} run on?", "What service builds and checks {p} on every push?"),
    "ci_rev": ("Which project's pipeline is in {cipath}?", "Whose build steps does {cipath} define?"),
    "deploy": ("Where does {p} deploy to?", "Where is {p} hosted in production?"),
    "port": ("Which port does {p}'s dev server run on?", "On what local number does {n} reach {p} while developing?"),
    "port_rev": ("Which project's dev server runs on port {port}?", "What does {n} reach at localhost:{port}?"),
    "db": ("What is {p}'s database called?", "Under which name is {p}'s schema created?"),
    "engine": ("Which database engine does {p} use?", "What kind of data store sits behind {p}?"),
    "db_rev": ("Which project uses the {dbname} database?", "Whose records live in {dbname}?"),
    "env": ("Which environment variable holds {p}'s {service} key?", "Under what name does {p} expect its {service} "
            "credential?"),
    "env_rev": ("What is the {var} environment variable for?", "Which vendor's credential does {var} carry?"),
    "store": ("Where does the value of {var} live?", "Which vault keeps {var}?"),
    "lib": ("Which {purpose} did {n} pick for {p}?", "What {purposep} does {p} rely on?"),
    "libwhy": ("Why did {n} choose {lib} over {alt}?", "What made {lib} win for {p}?"),
    "error": ("How did {n} fix {errshort} in {p}?", "What resolved the {errp} in {p}?"),
    "company": ("Where does {n} work?", "Which company employs {n}?"),
    "title": ("What is {n}'s title at {company}?", "What position does {n} hold?"),
    "editor": ("Which editor does {n} code in?", "What program does {n} write software in?"),
    "oncall": ("Which day is {n} on call?", "On what weekday does {n} carry the pager?"),
    "lead": ("Who is {n}'s tech lead?", "Which colleague of {n} has the final say on system design?"),
    "mate": ("Who is the {role} on {n}'s team?", "Which colleague of {n} {roledesc}?"),
    "mate_rev": ("What is {t}'s role on {n}'s team?", "What does {t} do alongside {n}?"),
    **{f"extra_{k}": v[3] for k, v in EXTRAS.items()},
}  # fmt: skip
BEFORE = {
    "lver": ("Which {lang} version was {p} on before?", "What {langp} release did {p} target originally?"),
    "tool": ("Which {tool_} did {p} use before?", "Which {toolp} did {p} rely on originally?"),
    "port": ("Which port did {p}'s dev server run on before?", "On what local number did {n} reach {p} originally?"),
    "ci": ("Which CI did {p} run on before?", "What service built and checked {p} originally?"),
    "deploy": ("Where did {p} deploy to before?", "Where was {p} hosted in production originally?"),
    "editor": ("Which editor did {n} code in before?", "What program did {n} write software in originally?"),
    "oncall": ("Which day was {n} on call before?", "On what weekday did {n} carry the pager originally?"),
    "lead": ("Who was {n}'s tech lead before?", "Which colleague of {n} had the final say on system design "
             "originally?"),
}  # fmt: skip
UPDATE = {
    "lver": [("Which {lang} version was {p} upgraded to?", "What {langp} release does {p} target at present?"),
             ("Did the test suite pass after {p}'s upgrade?", "Did anything break when {p} got a newer {langp}?")],
    "tool": [("Which {tool_} was {p} moved over to?", "Which {toolp} does {p} rely on at present?"),
             ("Which {file} does {p}'s repo have now?", "Which {filep} sits in {p}'s repository at present?")],
    "port": [("Which port does {p}'s dev server run on now?", "On what local number does {n} reach {p} at present?"),
             ("Why did {n} move {p}'s dev server to another port?", "What was the reason {p} got a different local "
              "number?")],
    "ci": [("Which CI was {p} migrated to?", "What service builds and checks {p} at present?"),
           ("Where is {p}'s pipeline now?", "Which file defines {p}'s build steps at present?")],
    "deploy": [("Where does {p} deploy to now?", "Where is {p} hosted in production at present?"),
               ("Did the first deploy of {p} go fine after the move?", "Did {p} go live without trouble on the "
                "newer platform?")],
    "editor": [("Which editor did {n} switch to?", "What program does {n} write software in at present?"),
               ("Is {n} still using the same editor?", "Has {n} changed the program used for writing software?")],
    "oncall": [("Which day is {n} on call now?", "On what weekday does {n} carry the pager at present?"),
               ("Is {n} still on call on the same day?", "Does {n} carry the pager on a different weekday these "
                "days?")],
    "lead": [("Who took over as {n}'s tech lead?", "Which colleague of {n} has the final say on system design at "
              "present?"),
             ("Where did {n}'s new tech lead come from?", "Which group was {n}'s latest design approver in before?")],
}  # fmt: skip
HISTORY = {
    "lver": ("Which {lang} version was {p} on, and which was it upgraded to?", "Which {langp} releases has {p} "
             "targeted?"),
    "tool": ("Which {tool_} did {p} use, and which was it moved over to?", "Which {toolp}s has {p} relied on?"),
    "port": ("Which port did {p}'s dev server run on, and which port now?", "On which local numbers has {n} reached "
             "{p}?"),
    "ci": ("Which CI did {p} run on, and which was it migrated to?", "Which services have built and checked {p}?"),
    "deploy": ("Where did {p} deploy to, and where now?", "Where has {p} been hosted in production?"),
    "editor": ("Which editor did {n} code in, and which did {n} switch to?", "Which programs has {n} written "
               "software in?"),
    "oncall": ("Which day was {n} on call, and which day now?", "On which weekdays has {n} carried the pager?"),
    "lead": ("Who was {n}'s tech lead, and who took over?", "Which colleagues of {n} have had the final say on "
             "system design?"),
}  # fmt: skip
AGGREGATE = {
    "port": ("Which ports do the dev servers of {a} and {b} run on?", "On what local numbers does {n} reach {a} "
             "and {b} while developing?"),
    "ci": ("Which CI do {a} and {b} run on?", "What services build and check {a} and {b} on every push?"),
    "deploy": ("Where do {a} and {b} deploy to?", "Where are {a} and {b} hosted in production?"),
    "fw": ("Which frameworks are {a} and {b} built on?", "What web toolkits underlie {a} and {b}?"),
    "db": ("What are the databases of {a} and {b} called?", "Under which names are the schemas of {a} and {b} "
           "created?"),
    "test": ("What commands run the tests of {a} and {b}?", "How does {n} start the suites of {a} and {b} "
             "locally?"),
}  # fmt: skip
TEMPORAL = {
    "lver:2": ("When was {p} upgraded to {lang} {lver2}?", "On what date did {p} get a newer {langp}?"),
    "tool:2": ("When was {p} moved over to {tool2}?", "On what date did {p} change its {toolp}?"),
    "port:2": ("When was {p}'s dev server moved to port {port2}?", "On what date did {p} get a different local "
               "number?"),
    "ci:2": ("When was {p}'s CI migrated to {ci2}?", "On what date did a different service start building {p}?"),
    "deploy:2": ("When did {p} move to {dep2}?", "On what date did {p} change hosting?"),
    "editor:2": ("When did {n} switch to {editor2}?", "On what date did {n} change programs for writing software?"),
    "oncall:2": ("When did {n}'s on-call day move to {oday2}?", "Since what date has {n} carried the pager on a "
                 "different weekday?"),
    "lead:2": ("When did {lead2} take over as tech lead?", "Since what date has {n} had a different design "
               "approver?"),
    "release": ("When does {p} {rel} go out?", "On what date will {rel} of {p} be shipped?"),
    "error": ("When did {p} throw {errshort}?", "On what date did {p} suffer the {errp}?"),
}  # fmt: skip
# never said: (question in familiar words, paraphrased, terms said nowhere in the conversation)
NEVER_SAID = [
    ("Which Kafka topic does {p} publish to?", "Into which event-streaming log does {p} write its messages?",
     ("kafka", "event-streaming")),
    ("Which Sentry project collects {p}'s exceptions?", "Where are {p}'s crash reports aggregated?",
     ("sentry", "crash reports")),
    ("Which Terraform workspace provisions {p}?", "Which infrastructure-as-code environment creates {p}'s cloud "
     "resources?", ("terraform", "infrastructure-as-code")),
    ("What is {n}'s GitHub username?", "Which handle does {n} use on the code-hosting site?",
     ("username", "handle")),
    ("Which Redis database does {p} cache in?", "Which in-memory key-value store holds {p}'s cache?",
     ("redis", "in-memory")),
    ("What is {p}'s Grafana dashboard called?", "Which metrics board tracks {p}'s health?",
     ("grafana", "metrics board")),
    ("How many replicas does {p} run in production?", "How many instances of {p} serve live traffic?",
     ("replicas", "instances")),
    ("Which keyboard layout does {n} type on?", "Which key arrangement does {n} type with?",
     ("keyboard", "key arrangement")),
    ("Where is {p}'s GraphQL schema file?", "Where is the typed query-language definition of {p}?",
     ("graphql", "query-language")),
    ("Which font does {n} code in?", "Which typeface does {n}'s editor display?", ("font", "typeface")),
    ("Which Elasticsearch index does {p} write to?", "Which full-text search cluster does {p} fill?",
     ("elasticsearch", "full-text")),
    ("When is {n}'s birthday?", "On which date was {n} born?", ("birthday", "born")),
]  # fmt: skip
#: the developer's facts that can change: (first templates, echoed slot, later templates, echoed slot)
CHANGING: dict[str, tuple[list[str], str, list[str], str]] = {
    "lver": (LVER, "lver", LVER_NEW, "lver2"),
    "tool": (TOOL, "lock", TOOL_NEW, "lock2"),
    "port": (PORT, "port", PORT_NEW, "port2"),
    "ci": (CI, "cipath", CI_NEW, "cipath2"),
    "deploy": (DEPLOY, "dep", DEPLOY_NEW, "dep2"),
    "editor": (EDITOR, "editor", EDITOR_NEW, "editor2"),
    "oncall": (ONCALL, "oday", ONCALL_NEW, "oday2"),
    "lead": (LEAD, "lead", LEAD_NEW, "lead2"),
}
PROJECT_CHANGES = ("lver", "tool", "port", "ci", "deploy")


def when(rng: random.Random, day: date, past: bool = False) -> str:
    """An event's date as said on ``day``: a release ahead (absolute mostly, relative at times), or
    ``past`` for an error hit or a change made (relative mostly, absolute at times)."""
    if past:
        if rng.random() < 0.4:
            d = day - timedelta(days=rng.randint(2, 12))
            return f"on {d.day} {MONTHS[d.month - 1]}"
        return rng.choice(["yesterday", "this morning", "last week", "on Monday", "the day before yesterday"])
    if rng.random() < 0.6:
        d = day + timedelta(days=rng.randint(5, 60))
        return f"on {d.day} {MONTHS[d.month - 1]}"
    return rng.choice(["next week", "in two weeks", "at the end of the month", f"next {rng.choice(WEEKDAYS[:5])}",
                       f"this {rng.choice(WEEKDAYS[:5])}"])  # fmt: skip


def upper_first(text: str) -> str:
    return text[0].upper() + text[1:]


def wrap(rng: random.Random, text: str) -> str:
    """A fact's turn: maybe a lead-in before it (the first word lower-cased if it is an ordinary
    word, never a name, a tool or an identifier) and a word of thanks after it."""
    lead = rng.choice(LEADS)
    if lead:
        keep = text.split()[0] not in LOWER_OK
        text = lead + (text if keep else text[0].lower() + text[1:])
    text = upper_first(text)
    return text.rstrip(".") + ("" if text.endswith(("?", "!")) else ".") + rng.choice(TAILS)


def fillers(rng: random.Random, count: int, projects: list[dict[str, Any]], mates: list[str]) -> list[list[str]]:
    """``count`` different requests or bits of chatter that state nothing asked, each with the
    assistant's reply (at times none); about a fifth of them name a project or a teammate."""
    out = []
    for ask, reply in rng.sample(CHAT + PROJECT_CHAT, count):
        slots = {"p": rng.choice(projects)["p"], "t": rng.choice(mates)}
        out.append([ask.format(**slots)] + ([reply.format(**slots)] if rng.random() < 0.9 else []))
    return out


def make_projects(rng: random.Random, names: list[tuple[str, str]], org: str) -> list[dict[str, Any]]:
    """A developer's three projects and their attributes, distinct within the developer wherever a
    question tells two projects apart (ports, CI services, databases, extras, errors, libraries)."""
    ports = rng.sample(PORTS, 2 * PROJECTS)
    cis = rng.sample(CIS, 2 * PROJECTS)
    deploys = rng.sample(DEPLOYS, 2 * PROJECTS)
    kinds = rng.sample(KINDS, PROJECTS)
    extras = rng.sample(sorted(EXTRAS), PROJECTS)
    services = rng.sample(SERVICES, PROJECTS)
    host = rng.choice(HOSTS)
    langs = [rng.choice(sorted(LANGS)) for _ in range(PROJECTS)]
    errors = {lang: rng.sample(ERRORS[lang], langs.count(lang)) for lang in sorted(set(langs))}
    libs = {lang: rng.sample(LIBS[lang], langs.count(lang)) for lang in sorted(set(langs))}
    projects = []
    for i, (lang, (name, abbr)) in enumerate(zip(langs, names, strict=True)):
        spec = LANGS[lang]
        lver, lver2 = rng.choice(spec["versions"])
        fw, fvers, fw_open = rng.choice(spec["frameworks"])
        (tool, lock), (tool2, lock2) = rng.sample(spec["tools"], 2)
        tests = spec["tests"].get(tool, spec["tests"].get("*"))
        err, errshort, errp, fix = errors[lang].pop()
        purpose, lib, alt, reason, purposep, lib_open = libs[lang].pop()
        service, suffix = services[i]
        extra = extras[i]
        turns, values, _, _ = EXTRAS[extra]
        slug = f"{abbr}-{kinds[i][1]}"
        p = {"p": name, "abbr": abbr, "language": lang, "lang": spec["lang"], "langp": spec["langp"],
             "lver": lver, "lver2": lver2, "fw": fw, "fver": rng.choice(fvers), "fw_open": fw_open,
             "tool": tool, "lock": lock, "tool2": tool2, "lock2": lock2, "tool_": spec["tool"], "file": spec["file"],
             "toolp": spec["toolp"], "filep": spec["filep"],
             "test": rng.choice(tests), "ci": cis[i][0], "cipath": cis[i][1], "ci2": cis[PROJECTS + i][0],
             "cipath2": cis[PROJECTS + i][1], "dep": deploys[i][0], "dep_open": deploys[i][1],
             "dep2": deploys[PROJECTS + i][0], "port": ports[i], "port2": ports[PROJECTS + i],
             "engine": rng.choice(ENGINES)[0], "dbname": f"{abbr}_{rng.choice(DB_SUFFIXES)}",
             "service": service, "var": f"{abbr.upper()}_{service.upper()}_{suffix}", "store": rng.choice(STORES),
             "purpose": purpose, "lib": lib, "alt": alt, "reason": reason, "purposep": purposep,
             "lib_open": lib_open, "err": err, "errshort": errshort, "errp": errp, "fix": fix,
             "rel": f"v{rng.randint(1, 4)}.{rng.randint(0, 9)}.0", "desc": kinds[i][0], "slug": slug,
             "repo": f"{host}/{org}/{slug}", "extra": extra,
             "x": rng.choice(values).format(abbr=abbr), "extra_turns": turns}  # fmt: skip
        p["db_open"] = next(o for e, o in ENGINES if e == p["engine"])
        projects.append(p)
    return projects


def generate(seed: int = SEED) -> dict[str, Any]:
    rng = random.Random(seed)
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    developers = rng.sample(DEVELOPERS, CONVERSATIONS)
    companies = rng.sample(COMPANIES, CONVERSATIONS)
    project_names = rng.sample(PROJECT_NAMES, PROJECTS * CONVERSATIONS)
    people = [f"{f} {s}" for f, s in zip(rng.sample(FIRST, 4 * CONVERSATIONS), rng.sample(LAST, 4 * CONVERSATIONS),
                                         strict=True)]  # fmt: skip
    for k in range(CONVERSATIONS):
        cid = f"d{k}"
        n = developers[k]
        n_sessions = rng.randint(24, 34)
        start = date(2026, 2, 2) + timedelta(days=rng.randint(0, 40))
        days = [start]
        for _ in range(n_sessions - 1):
            days.append(days[-1] + timedelta(days=rng.randint(2, 9)))
        early, late = range(0, n_sessions // 3), range(2 * n_sessions // 3, n_sessions)
        anywhere, before_last = range(n_sessions), range(n_sessions - 1)
        company, org, what, company_open = companies[k]
        projects = make_projects(rng, project_names[PROJECTS * k : PROJECTS * (k + 1)], org)
        for p in projects:
            p["n"] = n
        mates_ = people[4 * k : 4 * k + 4]
        roles = rng.sample(ROLES, 2)
        oday, oday2 = rng.sample(WEEKDAYS[:5], 2)
        (editor, editor_open), (editor2, _) = rng.sample(EDITORS, 2)
        me: dict[str, Any] = {
            "n": n, "company": company, "what": what, "company_open": company_open, "title": rng.choice(TITLES),
            "editor": editor, "editor_open": editor_open, "editor2": editor2, "oday": oday, "oday2": oday2,
            "lead": mates_[0], "lead_f": mates_[0].split()[0], "lead2": mates_[1], "lead2_f": mates_[1].split()[0],
        }  # fmt: skip
        mates: list[dict[str, Any]] = [
            {"n": n, "t": t, "role": r[0], "detail": r[1].format(f=t.split()[0]), "roledesc": r[2],
             "mate_open": r[3].format(t=t, n=n)}
            for t, r in zip(mates_[2:], roles, strict=True)
        ]  # fmt: skip
        # four changes: (kind, project index, or -1 for the developer)
        updates: list[tuple[str, int]] = []
        for kind in rng.sample([*PROJECT_CHANGES, "editor", "oncall", "lead"], UPDATES_PER_DEVELOPER):
            if kind not in PROJECT_CHANGES:
                updates.append((kind, -1))
                continue
            owners = [i for i, p in enumerate(projects) if kind != "tool" or p["language"] in SWITCHABLE]
            owners = [i for i in owners if (kind, i) not in updates] or list(range(PROJECTS))
            updates.append((kind, rng.choice(owners)))
        changed = set(updates)

        # planned[d]: blocks of (speaker or "" for the developer, text with {w} to fill on the day, key,
        # echo word)
        planned: dict[int, list[list[tuple[str, str, str, str]]]] = {d: [] for d in anywhere}

        def say(days_: range, text: str, key: str, echo: str = "", restate: str = "",
                planned: dict = planned) -> None:  # fmt: skip
            """A fact's turn on one of ``days_`` and maybe the assistant's reply (echoing ``echo`` or
            restating the fact at times)."""
            block = [("", text, key, "")]
            r = rng.random()
            if echo and r < 0.35:
                block.append((ASSISTANT, rng.choice(ECHO), "", echo))
            elif restate and r < 0.6:
                block.append((ASSISTANT, restate, "", ""))
            elif r < 0.9:
                block.append((ASSISTANT, rng.choice(ACKS), "", ""))
            planned[rng.choice(days_)].append(block)

        def fact(days_: range, slots: dict[str, Any], templates: list[str], key: str, echo_slot: str,
                 restate: str = "") -> None:  # fmt: skip
            text = rng.choice(templates).format(**{**slots, "w": "{w}"})
            say(days_, text, key, str(slots[echo_slot]) if echo_slot else "",
                RESTATE[restate].format(**slots) if restate else "")  # fmt: skip

        project_facts: dict[str, tuple[list[str], str]] = {
            "repo": (REPO, "repo"), "fw": (FRAMEWORK, "fw"), "test": (TEST, "test"), "db": (DB, "dbname"),
            "env": (ENV, "var"), "lib": (LIB, "lib"), "error": (ERROR, "errshort"), "release": (RELEASE, "rel"),
        }  # fmt: skip
        for i, p in enumerate(projects):
            for x, (templates, echo) in project_facts.items():
                fact(before_last if x == "release" else anywhere, p, templates, f"{x}:{i}", echo, x)
            fact(anywhere, p, [t.replace("{x}", p["x"]) for t in p["extra_turns"]], f"extra:{i}", "x", "extra")
            for x in PROJECT_CHANGES:
                first, echo, second, echo2 = CHANGING[x]
                upd = (x, i) in changed
                fact(early if upd else anywhere, p, first, f"{x}:1:{i}", echo, x)
                if upd:
                    fact(late, p, second, f"{x}:2:{i}", echo2)
        fact(anywhere, me, COMPANY, "company:d", "company", "company")
        for x in ("editor", "oncall", "lead"):
            first, echo, second, echo2 = CHANGING[x]
            upd = (x, -1) in changed
            fact(early if upd else anywhere, me, first, f"{x}:1:d", echo, x)
            if upd:
                fact(late, me, second, f"{x}:2:d", echo2)
        for j, m in enumerate(mates):
            fact(anywhere, m, MATE, f"mate:{j}", "t", "mate")
        prefs = rng.sample(PREFERENCES, 4)
        for j, pref in enumerate(prefs):
            say(anywhere, rng.choice(pref[:2]), f"pref:{j}")
        # the assistant's suggestions, each about a project and never taken up
        suggested = []
        for sug, p in zip(rng.sample(SUGGESTIONS, NEVER_KINDS["assistant only"]),
                          rng.sample(projects, NEVER_KINDS["assistant only"]), strict=True):  # fmt: skip
            suggested.append((sug, p))
            block = [("", rng.choice(ASKS).format(p=p["p"]), "", ""), (ASSISTANT, sug[1].format(p=p["p"]), "", ""),
                     ("", rng.choice(DECLINES), "", "")]  # fmt: skip
            planned[rng.choice(anywhere)].append(block)

        sessions, where = [], {}
        for d, day in enumerate(days):
            blocks = planned[d]
            for chat in fillers(rng, rng.randint(4, 8), projects, mates_):
                blocks.append([(s, t, "", "") for s, t in zip(("", ASSISTANT), chat, strict=False)])
            rng.shuffle(blocks)
            turns: list[dict[str, str]] = []
            for speaker, text, key, echo in (x for b in blocks for x in b):
                if key:
                    past = key.startswith("error") or ":2:" in key
                    text = wrap(rng, text.format(w=when(rng, day, past=past)))
                elif echo:
                    text = text.format(w=echo)  # the value as it was typed, even first
                tid = f"{cid}:D{d + 1}:{len(turns) + 1}"
                turns.append({"id": tid, "speaker": speaker or n, "text": text})
                if key:
                    where[key] = tid
            sessions.append({"session": d + 1, "date": day.isoformat(), "turns": turns})
        conversations.append({"id": cid, "speakers": [n, ASSISTANT], "sessions": sessions})

        # candidates: (variants: in the turns' words and paraphrased, or one inference question; evidence; tag)
        pool: dict[str, list[tuple[tuple[str, ...], list[str], str]]] = {t: [] for t in PER_CONVERSATION}

        def ask(kind: str, variants: tuple[str, ...], keys: list[str], pool: dict = pool, where: dict = where,
                tag: str = "", **slots: Any) -> None:  # fmt: skip
            """A candidate question with its variants filled in (the wording is chosen when it is kept)."""
            pool[kind].append((tuple(v.format(**slots) for v in variants), [where[x] for x in keys], tag))

        def history(x: str, owner: str, slots: dict[str, Any]) -> None:
            """A change's questions: the earlier value, the current one, both, and when it changed."""
            ask("single-hop", BEFORE[x], [f"{x}:1:{owner}"], **slots)
            for variants in UPDATE[x]:
                ask("knowledge-update", variants, [f"{x}:2:{owner}"], tag=f"{x}:{owner}", **slots)
            ask("multi-hop", HISTORY[x], [f"{x}:1:{owner}", f"{x}:2:{owner}"], tag="history", **slots)
            ask("temporal", TEMPORAL[f"{x}:2"], [f"{x}:2:{owner}"], **slots)

        for i, p in enumerate(projects):
            for x in PROJECT_CHANGES:
                if (x, i) in changed:
                    history(x, str(i), p)
                    continue
                ask("single-hop", SINGLE[x], [f"{x}:1:{i}"], **p)
                if x == "port":
                    ask("single-hop", SINGLE["port_rev"], [f"{x}:1:{i}"], **p)
                if x == "ci":
                    ask("single-hop", SINGLE["ci_rev"], [f"{x}:1:{i}"], **p)
                if x == "deploy":
                    ask("open-domain", (p["dep_open"].format(**p),), [f"{x}:1:{i}"])
            for x, said in (("repo", "repo"), ("repo_rev", "repo"), ("fw", "fw"), ("fver", "fw"), ("test", "test"),
                            ("db", "db"), ("engine", "db"), ("db_rev", "db"), ("env", "env"), ("env_rev", "env"),
                            ("store", "env"), ("lib", "lib"), ("libwhy", "lib"), ("error", "error"),
                            (f"extra_{p['extra']}", "extra")):  # fmt: skip
                ask("single-hop", SINGLE[x], [f"{said}:{i}"], **p)
            ask("temporal", TEMPORAL["release"], [f"release:{i}"], **p)
            ask("temporal", TEMPORAL["error"], [f"error:{i}"], **p)
            ask("open-domain", (p["fw_open"].format(**p),), [f"fw:{i}"])
            ask("open-domain", (p["db_open"].format(**p),), [f"db:{i}"])
            ask("open-domain", (p["lib_open"].format(**p),), [f"lib:{i}"])
        for x in ("editor", "oncall", "lead"):
            if (x, -1) in changed:
                history(x, "d", me)
                continue
            ask("single-hop", SINGLE[x], [f"{x}:1:d"], **me)
        if ("editor", -1) not in changed:
            ask("open-domain", (me["editor_open"].format(**me),), ["editor:1:d"])
        ask("single-hop", SINGLE["company"], ["company:d"], **me)
        ask("single-hop", SINGLE["title"], ["company:d"], **me)
        ask("open-domain", (me["company_open"].format(**me),), ["company:d"])
        for j, m in enumerate(mates):
            ask("single-hop", SINGLE["mate"], [f"mate:{j}"], **m)
            ask("single-hop", SINGLE["mate_rev"], [f"mate:{j}"], **m)
            ask("open-domain", (m["mate_open"],), [f"mate:{j}"])
        for x, variants in AGGREGATE.items():
            fixed = x in ("fw", "db", "test")  # facts that never change: their keys have no "1"
            owners = [i for i in range(PROJECTS) if fixed or (x, i) not in changed]
            for a, b in [(a, b) for a in owners for b in owners if a < b]:
                pair = [f"{x}:{a}", f"{x}:{b}"] if fixed else [f"{x}:1:{a}", f"{x}:1:{b}"]
                ask("multi-hop", variants, pair, a=projects[a]["p"], b=projects[b]["p"], n=n)
        for j, pref in enumerate(prefs):
            ask("preference", pref[2], [f"pref:{j}"], n=n)
            ask("open-domain", (pref[3].format(n=n),), [f"pref:{j}"])

        chosen = pick(rng, pool, PER_CONVERSATION)
        never: list[tuple[tuple[str, ...], str]] = []
        for row in rng.sample(NEVER_SAID, NEVER_KINDS["never said"]):
            slots = {"p": rng.choice(projects)["p"], "n": n}
            never.append((tuple(v.format(**slots) for v in row[:2]), "never said"))
        # an extra only another project has, asked about the wrong project in the owner's words
        wrong = [(o, a) for o in projects for a in projects if a is not o]
        for owner, asked in rng.sample(wrong, NEVER_KINDS["other project's"]):
            variants = EXTRAS[owner["extra"]][3]
            never.append((tuple(v.format(**{**owner, "p": asked["p"]}) for v in variants), "other project's"))
        for sug, p in suggested:
            never.append((tuple(q.format(p=p["p"]) for q in sug[2]), "assistant only"))
        for (wordings, kind), style in zip(never, halves(rng, len(never)), strict=True):
            chosen.append(("adversarial", wordings[style], [], kind))
        for i, (kind, text, ev, nv) in enumerate(chosen, 1):
            q = {"id": f"{cid}:q{i}", "conversation": cid, "type": kind, "question": text, "evidence": ev}
            questions.append(q | ({"never": nv} if nv else {}))
    n_turns = sum(len(s["turns"]) for c in conversations for s in c["sessions"])
    about = (
        f"A developer's coding assistant, generated by bench/retrieval/generate_dev.py (seed {seed}): "
        f"{len(conversations)} developers, {n_turns} turns, {len(questions)} questions."
    )
    return {"about": about, "conversations": conversations, "questions": questions}


def main() -> None:
    write(generate(), OUT)


if __name__ == "__main__":
    main()
