"""German: the languages data set's German wording (see the package's docstring), informal "du".

Forms: ``bare`` the value without article ("Hund", "Klavier", "Erdnüsse"). A pet also has
``einen`` (accusative with indefinite article: "einen Hund", "eine Katze", "ein Kaninchen"), ``der``
(nominative, definite: "der Hund"), ``den_adoptierten`` ("den adoptierten Hund", "die adoptierte
Katze") and ``ihn`` (its accusative pronoun: "ihn", "sie", "es"). A colour has the adjective endings
the car sentences need: ``en`` ("einen roten Volvo") and ``e`` ("der rote Lack"). A food has ``dat``
("von Erdnüssen"); a country ``nach`` ("nach Japan") and ``in`` ("in Japan"); a sport ``verein``
("Tennisverein") and ``training`` ("Tennistraining"); a plant ``Die`` ("Die Rosen"),
the verb ``bluehen`` ("blühen", "blüht") and the pronoun ``sie`` ("sie", "ihn"). The speaker's own
job is in the generic masculine ("Architekt"), the sister's in the feminine ("Pilotin"). The
genitive of a name is always "von {S}".
"""

from __future__ import annotations

CODE = "de"
NAME = "German"


def _bare(*words: str) -> list[dict[str, str]]:
    return [{"bare": w} for w in words]


_ARTICLES = {
    "m": {"einen": "einen", "der": "der", "den_adoptierten": "den adoptierten", "ihn": "ihn"},
    "f": {"einen": "eine", "der": "die", "den_adoptierten": "die adoptierte", "ihn": "sie"},
    "n": {"einen": "ein", "der": "das", "den_adoptierten": "das adoptierte", "ihn": "es"},
}


def _pets(*entries: tuple[str, str]) -> list[dict[str, str]]:
    values = []
    for gender, noun in entries:
        forms = _ARTICLES[gender]
        values.append(
            {
                "einen": f"{forms['einen']} {noun}",
                "der": f"{forms['der']} {noun}",
                "den_adoptierten": f"{forms['den_adoptierten']} {noun}",
                "ihn": forms["ihn"],
                "bare": noun,
            }
        )
    return values


def _colors(*stems: str) -> list[dict[str, str]]:
    return [{"bare": s, "en": s + "en", "e": s + "e"} for s in stems]


def _countries(*names: str) -> list[dict[str, str]]:
    return [{"bare": n, "nach": f"nach {n}", "in": f"in {n}"} for n in names]


def _sports(*entries: tuple[str, str, str]) -> list[dict[str, str]]:
    return [{"bare": bare, "verein": club + "verein", "training": stem + "training"} for bare, club, stem in entries]


def _plants(*entries: tuple[str, bool]) -> list[dict[str, str]]:
    values = []
    for noun, plural in entries:
        if plural:
            values.append({"bare": noun, "Die": f"Die {noun}", "bluehen": "blühen", "sie": "sie"})
        else:  # a masculine mass noun (der Lavendel), kept for such a value
            values.append({"bare": noun, "Die": f"Der {noun}", "bluehen": "blüht", "sie": "ihn"})
    return values


SLOTS: dict[str, list[dict[str, str]]] = {
    "pet": _pets(
        ("m", "Hund"),
        ("f", "Katze"),
        ("n", "Kaninchen"),
        ("m", "Papagei"),
        ("f", "Schildkröte"),
        ("m", "Hamster"),
        ("n", "Frettchen"),
        ("m", "Goldfisch"),
    ),
    "job": _bare(
        "Krankenpfleger", "Architekt", "Buchhalter", "Lehrer", "Elektriker", "Apotheker", "Übersetzer", "Schreiner"
    ),
    "food": [
        {"bare": "Erdnüsse", "dat": "Erdnüssen"},
        {"bare": "Schalentiere", "dat": "Schalentieren"},
        {"bare": "Erdbeeren", "dat": "Erdbeeren"},
        {"bare": "Eier", "dat": "Eiern"},
        {"bare": "Sesam", "dat": "Sesam"},
        {"bare": "Walnüsse", "dat": "Walnüssen"},
        {"bare": "Sellerie", "dat": "Sellerie"},
        {"bare": "Senf", "dat": "Senf"},
    ],
    # all feminine: the sister's profession
    "job2": _bare(
        "Pilotin", "Tierärztin", "Anwältin", "Köchin", "Feuerwehrfrau", "Journalistin", "Ingenieurin", "Bäckerin"
    ),
    "color": _colors("rot", "blau", "grün", "weiß", "schwarz", "silbern", "gelb", "grau"),
    "country": _countries("Japan", "Peru", "Norwegen", "Marokko", "Vietnam", "Kanada", "Griechenland", "Island"),
    "sport": _sports(
        ("Tennis", "Tennis", "Tennis"),
        ("Schwimmen", "Schwimm", "Schwimm"),
        ("Klettern", "Kletter", "Kletter"),
        ("Rudern", "Ruder", "Ruder"),
        ("Fechten", "Fecht", "Fecht"),
        ("Judo", "Judo", "Judo"),
        ("Volleyball", "Volleyball", "Volleyball"),
        ("Radsport", "Radsport", "Rad"),
    ),
    "dish": _bare("Lasagne", "Paella", "Curry", "Risotto", "Moussaka", "Gulasch", "Ratatouille", "Knödel"),
    "plant": _plants(
        ("Rosen", True),
        ("Tulpen", True),
        ("Sonnenblumen", True),
        ("Iris", True),
        ("Osterglocken", True),
        ("Dahlien", True),
        ("Pfingstrosen", True),
        ("Geranien", True),
    ),
    "subject": _bare("Leuchttürme", "alte Brücken", "Vögel", "das Meer", "Berge", "Wälder", "Häfen", "Windmühlen"),
    "instrument": _bare("Klavier", "Cello", "Geige", "Gitarre", "Trompete", "Querflöte", "Klarinette", "Saxofon"),
}

FACTS: dict[str, dict] = {
    "pet": {
        "say": (
            "Große Neuigkeiten, wir haben letztes Wochenende {pet[einen]} adoptiert und {pet[ihn]} {petname} genannt.",
            "{petname} hat die ganze Nacht auf meinen Füßen geschlafen, ich fass es nicht, dass wir so lange gewartet"
            " haben, uns {pet[einen]} zu holen.",
        ),
        "echo": "{petname} ist so ein süßer Name, schick mir ein Foto!",
        "ask": ("Wie hat {S} {pet[den_adoptierten]} genannt?", "Wie heißt das neue Haustier von {S}?"),
    },
    "job": {
        "say": (
            "Am Montag fange ich meinen neuen Job bei {company} an, ich arbeite dort als {job[bare]}.",
            "Die erste Woche bei {company} ist geschafft, alle dort sind total lieb und ich glaube, {job[bare]} zu"
            " sein liegt mir.",
        ),
        "echo": "{company}, wie genial, herzlichen Glückwunsch!",
        "ask": ("Bei welcher Firma hat {S} einen neuen Job angefangen?", "Bei wem ist {S} inzwischen angestellt?"),
    },
    "move": {
        "say": (
            "Wir sind endlich nach {city} gezogen, die Wohnung ist winzig, aber die Aussicht ist traumhaft.",
            "Bin immer noch am Kistenauspacken in unserem neuen Zuhause in {city}, morgens riecht die ganze Straße"
            " nach Brot.",
        ),
        "echo": "{city} ist wunderschön, ich freu mich so für euch.",
        "ask": ("In welche Stadt ist {S} gezogen?", "Wo lebt {S} jetzt?"),
    },
    "instrument": {
        "say": (
            "Ich hab angefangen, {instrument[bare]} zu lernen, jeden Dienstagabend hab ich jetzt Unterricht.",
            "Meine Lehrerin sagt, meine Tonleitern werden besser, ich übe jetzt jeden Tag eine Stunde"
            " {instrument[bare]}.",
        ),
        "echo": "Ich würd dich so gern mal spielen hören.",
        "ask": ("Für welches Instrument hat {S} Unterricht?", "Was übt {S} täglich?"),
    },
    "allergy": {
        "say": (
            "Der Arzt hat's bestätigt, ich bin allergisch gegen {food[bare]}, also ist das für mich ab jetzt tabu.",
            "Ich muss jetzt jedes Etikett lesen, schon die kleinste Spur von {food[dat]} und mir schwillt der Hals zu.",
        ),
        "echo": "Das ist im Restaurant bestimmt total nervig.",
        "ask": ("Wogegen ist {S} allergisch?", "Von welchem Lebensmittel wird {S} krank?"),
    },
    "sister": {
        "say": (
            "Meine Schwester {sibname} ist jetzt fertig ausgebildete {job2[bare]}, wir sind alle so stolz auf sie.",
            "{sibname} hat ihre Abschlussprüfungen bestanden, jetzt haben wir eine {job2[bare]} in der Familie.",
        ),
        "echo": "Sag {sibname} bitte herzlichen Glückwunsch von mir.",
        "ask": (
            "Als was ist {sibname}, die Schwester von {S}, jetzt fertig ausgebildet?",
            "Was ist {sibname} von Beruf?",
        ),
    },
    "car": {
        "say": (
            "Ich hab mir endlich ein Auto gekauft, einen {color[en]} {brand}, gebraucht, aber er läuft einwandfrei.",
            "Bin am Sonntag mit dem {brand} an die Küste gefahren, der {color[e]} Lack sieht in der Sonne fantastisch"
            " aus.",
        ),
        "echo": "Oh, dann steht ja bald ein Roadtrip an?",
        "ask": ("Was für ein Auto hat {S} gekauft?", "Was fährt {S} jetzt?"),
    },
    "book": {
        "say": (
            "Ich lese gerade einen Roman namens {title} und kann ihn echt nicht aus der Hand legen.",
            "Bin bis zwei Uhr wach geblieben, um {title} fertig zu lesen, beim Ende hab ich auf dem Sofa geheult.",
        ),
        "echo": "Leihst du's mir, wenn du durch bist?",
        "ask": ("Welchen Roman liest {S} gerade?", "Welcher Titel hat {S} bis zwei Uhr wach gehalten?"),
    },
    "trip": {
        "say": (
            "Wir haben unseren Sommerurlaub gebucht, im August drei Wochen {country[in]}.",
            "Ich lerne gerade ein paar Sätze für August, wir fliegen für drei Wochen {country[nach]}.",
        ),
        "echo": "Drei Wochen, du Glückspilz!",
        "ask": ("Wohin fährt {S} in den Sommerurlaub?", "Welches Land besucht {S} im August?"),
    },
    "sport": {
        "say": (
            "Ich bin in einen {sport[verein]} eingetreten, wir trainieren mittwochs und samstags.",
            "Mir tun die Beine nach dem {sport[training]} am Samstag so weh, der Trainer kennt keine Gnade.",
        ),
        "echo": "Respekt, ich komm kaum vom Sofa hoch.",
        "ask": ("In welchen Verein ist {S} eingetreten?", "Was trainiert {S} mittwochs?"),
    },
    "flight": {
        "say": (
            "Mein Flug nächsten Freitag ist {code}, er geht um sieben Uhr morgens.",
            "Kannst du mich am Freitag vom Flughafen abholen? Ich lande mit {code} gegen Mittag.",
        ),
        "echo": "Klar, schreib mir einfach, wenn du gelandet bist.",
        "ask": ("Welche Nummer hat der Flug von {S} nächsten Freitag?", "Welchen Flieger nimmt {S}?"),
    },
    "dish": {
        "say": (
            "Ich hab endlich gelernt, richtig {dish[bare]} zu kochen, nach dem Rezept meiner Oma.",
            "Hab am Sonntag Omas {dish[bare]} für alle gemacht, und es ist rein gar nichts übrig geblieben.",
        ),
        "echo": "Lad mich nächstes Mal bitte ein.",
        "ask": ("Welches Gericht hat {S} kochen gelernt?", "Was hat {S} nach Omas Rezept gemacht?"),
    },
    "child": {
        "say": (
            "Mein Sohn {childname} wird nächsten Monat {age} und wünscht sich eine Party mit einem Zauberer.",
            "{childname} zählt die Tage, bis er {age} wird, er redet von nichts anderem.",
        ),
        "echo": "Ein Zauberer, wie cool!",
        "ask": ("Wie alt wird {childname}, der Sohn von {S}?", "Auf welchen Geburtstag freut sich {childname}?"),
    },
    "dentist": {
        "say": (
            "Ich hab einen neuen Zahnarzt, Dr. {docname}, und ausnahmsweise hat es überhaupt nicht wehgetan.",
            "Dr. {docname} hat meinen Zahn in zehn Minuten wieder hinbekommen, ich geh nie wieder in die alte Praxis.",
        ),
        "echo": "Gib mir mal den Namen, ich brauch auch jemanden.",
        "ask": ("Wer ist der neue Zahnarzt von {S}?", "Welcher Arzt hat den Zahn von {S} behandelt?"),
    },
    "garden": {
        "say": (
            "Ich hab dieses Frühjahr am ganzen Gartenzaun entlang {plant[bare]} gepflanzt.",
            "{plant[Die]} am Zaun {plant[bluehen]} endlich, und die Bienen lieben {plant[sie]}.",
        ),
        "echo": "Den Garten musst du mir unbedingt mal zeigen.",
        "ask": ("Was hat {S} am Gartenzaun entlang gepflanzt?", "Welche Blumen blühen im Garten von {S}?"),
    },
    "painting": {
        "say": (
            "Ich hab angefangen, mit Aquarellfarben zu malen, meistens male ich {subject[bare]}.",
            "Hab mein erstes kleines Bild auf dem Markt verkauft, wieder {subject[bare]}, das scheint mein Ding zu"
            " sein.",
        ),
        "echo": "Du bist ja jetzt unter die Künstler gegangen, sieh mal einer an.",
        "ask": ("Was malt {S} mit Aquarellfarben?", "Was ist auf den Bildern von {S} zu sehen?"),
    },
}

#: Chatter that states no fact; some lines carry the slots' common words (Verein, Flug, Garten,
#: Arzt, Hund, Buch...) as traps for the keyword arm.
FILLER: list[str] = [
    "Das Wetter war die ganze Woche so grau, ich hab schon vergessen, wie die Sonne aussieht.",
    "Ich hab den ganzen Abend alte Fotos sortiert und nicht mal die Hälfte geschafft.",
    "Auf der Arbeit war heute das totale Chaos, drei Meetings über ein Meeting.",
    "Ich hab ein neues Café am Bahnhof ausprobiert, der Kaffee war okay, aber der Kuchen war der Hammer.",
    "Der Hund von meinem Nachbarn hat heute Morgen eine Stunde lang gebellt, ich hab so gut wie nicht geschlafen.",
    "Ich brauch Urlaub, und wenn's nur ein langes Wochenende irgendwo ist, wo es ruhig ist.",
    "Wir haben gestern Abend eine Doku über Kraken geschaut, die sind viel zu schlau.",
    "Ich hab endlich die Küchenschränke ausgemistet, du glaubst nicht, was ich da gefunden hab.",
    "Der Bus war schon wieder zu spät, ich stand zwanzig Minuten im Regen.",
    "Ich will schon ewig meine Tante anrufen, und dann ist es plötzlich zehn Uhr abends.",
    "Samstagvormittags gibt's jetzt einen Markt, vor allem Käse und Kerzen.",
    "Mein Handydisplay hat einen Sprung, ich Idiot hab's auf der Treppe fallen lassen.",
    "Im Buchclub haben wir ein Buch ausgesucht, das so lang ist, dass es noch keiner zu Ende gelesen hat.",
    "Ich bin gestern an meiner alten Schule vorbeigelaufen, die wirkt jetzt so klein.",
    "Jemand im Büro hat Kuchen mitgebracht, und auf der ganzen Etage war plötzlich Ruhe.",
    "Unser Flug nach Hause hatte letztes Jahr sechs Stunden Verspätung, davon hab ich mich bis heute nicht erholt.",
    "Ich wollte im Gartencenter nur einen Topf für den Garten holen und bin mit zwölf Sachen rausgekommen.",
    "Im Wartezimmer beim Arzt lagen Zeitschriften von vor zehn Jahren.",
    "Bei uns war der Strom weg und wir haben bei Kerzenlicht Karten gespielt, das war eigentlich richtig schön.",
    "Ich schlaf in letzter Zeit schlecht, wahrscheinlich zu viel Bildschirmzeit.",
    "Das Fitnessstudio hat schon wieder die Öffnungszeiten geändert, und keiner hat's irgendwem gesagt.",
    "Mein Cousin hat sich verlobt, im Familienchat ist komplett die Hölle los.",
    "Mir ist heute Morgen zweimal der Toast verbrannt, es ist einfach so ein Tag.",
    "Ich überleg, das Bad neu zu streichen, aber ich kann mich für keine Farbe entscheiden.",
    "Der Zug war so voll, dass ich bei jemandem über die Schulter die Zeitung mitgelesen hab.",
    "Ich hab eine Woche lang Meditation ausprobiert und dabei hauptsächlich ans Mittagessen gedacht.",
    "Unsere Straße wird schon wieder aufgerissen, der Lärm geht um sieben los.",
    "Ich hab in einer alten Manteltasche einen Zwanziger gefunden, bester Tag des Monats.",
    "Die Musik auf der Hochzeit war furchtbar, aber getanzt haben trotzdem alle.",
    "Ich hab online eine Lampe bestellt, und die kam in fünf einzelnen Paketen.",
    "Das Auto von meiner Freundin ist auf der Autobahn liegen geblieben, und ich musste hinfahren und sie retten.",
    "Die Bibliothek macht freitags jetzt früher zu, echt schade.",
    "Ich hing eine Stunde bei der Bank in der Warteschleife, immer wieder dieselbe Melodie.",
    "Wir versuchen, weniger Fleisch zu essen, bis jetzt klappt's gut.",
    "Die Kinder nebenan haben ein Trampolin und hüpfen da ab Sonnenaufgang drauf rum.",
    "Ich bin mit meinen Mails so im Rückstand, dass ich sie gar nicht mehr aufmache.",
    "Gestern Nacht saß ein Fuchs auf der Straße, einfach so, mitten auf der Fahrbahn.",
    "Ich hab mir neue Laufschuhe gekauft und bin noch kein einziges Mal darin gelaufen.",
    "Der Sportverein bei uns um die Ecke hat am Sonntag Tag der offenen Tür.",
    "Ich hab die ganze Serie in zwei Tagen durchgeschaut und bereue nichts.",
]
