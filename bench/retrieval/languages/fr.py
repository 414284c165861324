"""French: the languages data set's wording in French (see the package's docstring).

Forms, per slot: ``pet``: ``un`` ("un chien", "une tortue"), ``le`` ("le chien"), ``bare``, ``il`` (the
pronoun, "il"/"elle") and ``appele`` (the participle agreeing with it: "appelé"/"appelée"); ``job``: ``de``
("d'architecte", "de comptable", for "un poste de ..."), ``bare``; ``food``: ``au`` ("aux cacahuètes", "à la
moutarde"), ``de`` ("de cacahuète", "d'œuf", for "une trace de ..."), ``bare``; ``job2`` (a sister's, so
feminine): ``une`` ("une avocate"), ``bare`` ("avocate"); ``color``: ``f`` (agreeing with "voiture":
"rouge", "blanche", "grise"), ``bare`` (masculine); ``country``: ``en`` ("au Japon", "en Norvège"),
``bare`` ("le Japon", "l'Islande"); ``sport``: ``de`` ("de tennis", "d'escalade"), ``le``; ``dish``: ``le``
("les lasagnes", "la paella"); ``plant``: ``bare`` (all plural: "des roses", "les roses"); ``subject``:
``obj`` ("des phares", "de vieux ponts", "la mer"); ``instrument``: ``bare`` ("piano"), ``le`` ("la
guitare").

Nobody's gender is known (the speakers', ``{S}``'s), so nothing agrees with them (no "je suis allé(e)"),
and no word that elides comes before ``{S}`` ("de", "que": "d'Ana"): questions put ``{S}`` as the
subject ("{S} a planté quoi ...") or after "chez".
"""

from __future__ import annotations

CODE = "fr"
NAME = "French"


def _pet(un: str, pronoun: str) -> dict[str, str]:
    article, noun = un.split(" ", 1)
    feminine = article == "une"
    return {
        "un": un,
        "le": ("la " if feminine else "le ") + noun,
        "bare": noun,
        "il": pronoun,
        "appele": "appelée" if feminine else "appelé",
    }


def _de(word: str) -> str:
    return ("d'" if word[0] in "aeiouéèêœ" else "de ") + word


SLOTS: dict[str, list[dict[str, str]]] = {
    "pet": [
        _pet("un chien", "il"),
        _pet("un chat", "il"),
        _pet("un lapin", "il"),
        _pet("un perroquet", "il"),
        _pet("une tortue", "elle"),
        _pet("un hamster", "il"),
        _pet("un furet", "il"),
        _pet("un poisson rouge", "il"),
    ],
    "job": [
        {"de": _de(w), "bare": w}
        for w in (
            "infirmier",
            "architecte",
            "comptable",
            "prof",
            "électricien",
            "pharmacien",
            "traducteur",
            "menuisier",
        )
    ],
    "food": [
        {"au": "aux cacahuètes", "de": "de cacahuète", "bare": "cacahuètes"},
        {"au": "aux fruits de mer", "de": "de fruits de mer", "bare": "fruits de mer"},
        {"au": "aux fraises", "de": "de fraise", "bare": "fraises"},
        {"au": "aux œufs", "de": "d'œuf", "bare": "œufs"},
        {"au": "au sésame", "de": "de sésame", "bare": "sésame"},
        {"au": "aux noix", "de": "de noix", "bare": "noix"},
        {"au": "au céleri", "de": "de céleri", "bare": "céleri"},
        {"au": "à la moutarde", "de": "de moutarde", "bare": "moutarde"},
    ],
    "job2": [
        {"une": "une " + w, "bare": w}
        for w in (
            "pilote",
            "vétérinaire",
            "avocate",
            "cheffe cuisinière",
            "pompière",
            "journaliste",
            "ingénieure",
            "boulangère",
        )
    ],
    "color": [
        {"f": "rouge", "bare": "rouge"},
        {"f": "bleue", "bare": "bleu"},
        {"f": "verte", "bare": "vert"},
        {"f": "blanche", "bare": "blanc"},
        {"f": "noire", "bare": "noir"},
        {"f": "argentée", "bare": "argenté"},
        {"f": "jaune", "bare": "jaune"},
        {"f": "grise", "bare": "gris"},
    ],
    "country": [
        {"en": "au Japon", "bare": "le Japon"},
        {"en": "au Pérou", "bare": "le Pérou"},
        {"en": "en Norvège", "bare": "la Norvège"},
        {"en": "au Maroc", "bare": "le Maroc"},
        {"en": "au Vietnam", "bare": "le Vietnam"},
        {"en": "au Canada", "bare": "le Canada"},
        {"en": "en Grèce", "bare": "la Grèce"},
        {"en": "en Islande", "bare": "l'Islande"},
    ],
    "sport": [
        {"de": "de tennis", "le": "le tennis"},
        {"de": "de natation", "le": "la natation"},
        {"de": "d'escalade", "le": "l'escalade"},
        {"de": "d'aviron", "le": "l'aviron"},
        {"de": "d'escrime", "le": "l'escrime"},
        {"de": "de judo", "le": "le judo"},
        {"de": "de volley", "le": "le volley"},
        {"de": "de vélo", "le": "le vélo"},
    ],
    "dish": [
        {"le": w}
        for w in (
            "les lasagnes",
            "la paella",
            "le curry",
            "le risotto",
            "la moussaka",
            "le goulash",
            "la ratatouille",
            "les raviolis chinois",
        )
    ],
    "plant": [
        {"bare": w}
        for w in ("roses", "tulipes", "tournesols", "iris", "jonquilles", "dahlias", "pivoines", "géraniums")
    ],
    "subject": [
        {"obj": w}
        for w in (
            "des phares",
            "de vieux ponts",
            "des oiseaux",
            "la mer",
            "des montagnes",
            "des forêts",
            "des ports",
            "des moulins à vent",
        )
    ],
    "instrument": [
        {"bare": w, "le": le}
        for w, le in (
            ("piano", "le piano"),
            ("violoncelle", "le violoncelle"),
            ("violon", "le violon"),
            ("guitare", "la guitare"),
            ("trompette", "la trompette"),
            ("flûte", "la flûte"),
            ("clarinette", "la clarinette"),
            ("saxophone", "le saxophone"),
        )
    ],
}

FACTS: dict[str, dict] = {
    "pet": {
        "say": (
            "Grande nouvelle, on a adopté {pet[un]} le week-end dernier et on l'a {pet[appele]} {petname}.",
            "{petname} a dormi sur mes pieds toute la nuit, j'arrive pas à croire qu'on ait attendu aussi"
            " longtemps pour avoir {pet[un]}.",
        ),
        "echo": "{petname}, c'est trop mignon comme nom, envoie-moi une photo !",
        "ask": (
            "{S} a adopté {pet[un]} : comment {pet[il]} s'appelle ?",
            "Chez {S}, quel est le nom du nouvel animal ?",
        ),
    },
    "job": {
        "say": (
            "Je commence mon nouveau boulot chez {company} lundi, j'y aurai un poste {job[de]}.",
            "Première semaine terminée chez {company}, tout le monde est adorable et je crois que le métier"
            " {job[de]} me va bien.",
        ),
        "echo": "{company}, c'est génial, félicitations !",
        "ask": ("Chez quelle entreprise {S} a commencé un nouveau boulot ?", "Qui emploie {S} ces temps-ci ?"),
    },
    "move": {
        "say": (
            "On a enfin déménagé à {city}, l'appart est minuscule mais la vue est magnifique.",
            "On est encore en train de vider les cartons dans notre nouveau chez-nous à {city}, toute la rue sent"
            " le pain le matin.",
        ),
        "echo": "{city}, c'est superbe, ça me fait trop plaisir pour toi.",
        "ask": ("{S} a déménagé dans quelle ville ?", "Où habite {S} maintenant ?"),
    },
    "instrument": {
        "say": (
            "J'ai commencé à prendre des cours de {instrument[bare]}, tous les mardis soir.",
            "Mon prof dit que mes gammes s'améliorent, je travaille {instrument[le]} une heure par jour maintenant.",
        ),
        "echo": "J'adorerais t'entendre jouer un jour.",
        "ask": ("{S} prend des cours de quel instrument ?", "{S} s'exerce à quoi chaque jour ?"),
    },
    "allergy": {
        "say": (
            "Le médecin l'a confirmé, je suis allergique {food[au]}, donc c'est terminé pour moi.",
            "Je dois lire toutes les étiquettes maintenant, la moindre trace {food[de]} et j'ai la gorge qui gonfle.",
        ),
        "echo": "Ça doit être galère au resto.",
        "ask": ("{S} est allergique à quoi ?", "Quel aliment rend {S} malade ?"),
    },
    "sister": {
        "say": (
            "Ma sœur {sibname} vient d'être diplômée, elle est officiellement {job2[bare]}, on est tous trop fiers"
            " d'elle.",
            "{sibname} a réussi ses derniers examens, alors il y a maintenant {job2[une]} dans la famille.",
        ),
        "echo": "Félicite {sibname} de ma part !",
        "ask": (
            "{S} a une sœur, {sibname} : elle vient d'être diplômée de quoi ?",
            "Que fait {sibname} dans la vie ?",
        ),
    },
    "car": {
        "say": (
            "J'ai enfin acheté une voiture, une {brand} {color[f]}, d'occasion mais elle roule parfaitement.",
            "J'ai emmené ma nouvelle {brand} jusqu'à la mer dimanche, sa peinture {color[f]} est superbe au soleil.",
        ),
        "echo": "Ooh, petit road trip bientôt alors ?",
        "ask": ("Quelle voiture {S} a achetée ?", "{S} conduit quoi maintenant ?"),
    },
    "book": {
        "say": (
            "Je suis en train de lire un roman qui s'appelle {title} et franchement j'arrive pas à le lâcher.",
            "J'ai veillé jusqu'à deux heures du matin pour finir {title}, la fin m'a fait pleurer sur le canapé.",
        ),
        "echo": "Tu me le prêtes quand tu l'as fini ?",
        "ask": (
            "Quel roman {S} est en train de lire ?",
            "À cause de quel titre {S} a veillé jusqu'à deux heures ?",
        ),
    },
    "trip": {
        "say": (
            "On a réservé notre voyage d'été : trois semaines {country[en]} en août.",
            "Je révise quelques phrases pour le mois d'août, on s'envole pour {country[bare]} pendant trois semaines.",
        ),
        "echo": "Trois semaines, t'as trop de chance !",
        "ask": ("Où part {S} pour son voyage d'été ?", "Quel pays {S} va visiter en août ?"),
    },
    "sport": {
        "say": (
            "J'ai rejoint un club {sport[de]}, on s'entraîne le mercredi et le samedi.",
            "J'ai les jambes en compote après l'entraînement {sport[de]} de samedi, le coach est sans pitié.",
        ),
        "echo": "Bravo, moi j'arrive à peine à décoller du canapé.",
        "ask": ("Quel club {S} a rejoint ?", "Le mercredi, {S} s'entraîne à quel sport ?"),
    },
    "flight": {
        "say": (
            "Mon vol vendredi prochain, c'est le {code}, il part à sept heures du matin.",
            "Tu peux venir me chercher à l'aéroport vendredi ? J'atterris vers midi, c'est le {code}.",
        ),
        "echo": "Bien sûr, envoie-moi un texto quand tu atterris.",
        "ask": ("{S} a quel numéro de vol vendredi prochain ?", "{S} prend quel avion ?"),
    },
    "dish": {
        "say": (
            "J'ai enfin appris à cuisiner {dish[le]} comme il faut, la recette de ma grand-mère.",
            "J'ai fait {dish[le]} de ma grand-mère pour tout le monde dimanche et il n'en est pas resté une miette.",
        ),
        "echo": "Invite-moi la prochaine fois, s'il te plaît.",
        "ask": ("Quel plat {S} a appris à cuisiner ?", "{S} a préparé quoi avec la recette de sa grand-mère ?"),
    },
    "child": {
        "say": (
            "Mon fils {childname} va avoir {age} ans le mois prochain et il veut une fête avec un magicien.",
            "{childname} compte les jours jusqu'à ses {age} ans, il ne parle que de ça.",
        ),
        "echo": "Un magicien, trop bien !",
        "ask": (
            "{S} a un fils, {childname} : il va avoir quel âge ?",
            "Quel anniversaire {childname} attend avec impatience ?",
        ),
    },
    "dentist": {
        "say": (
            "J'ai changé de dentiste, je vais chez le Dr {docname} maintenant, et pour une fois ça m'a pas fait mal"
            " du tout.",
            "Le Dr {docname} m'a réparé la dent en dix minutes, je remets plus jamais les pieds à l'ancien cabinet.",
        ),
        "echo": "Donne-moi son nom, j'ai besoin de quelqu'un moi aussi.",
        "ask": ("{S} va chez quel dentiste maintenant ?", "{S} s'est fait soigner la dent par quel docteur ?"),
    },
    "garden": {
        "say": (
            "J'ai planté des {plant[bare]} tout le long de la clôture du jardin ce printemps.",
            "Les {plant[bare]} le long de la clôture sont enfin en fleurs et les abeilles en raffolent.",
        ),
        "echo": "Il faudra que tu me montres ton jardin.",
        "ask": ("{S} a planté quoi le long de la clôture ?", "Chez {S}, quelles fleurs s'épanouissent au jardin ?"),
    },
    "painting": {
        "say": (
            "J'ai commencé l'aquarelle, je peins surtout {subject[obj]}.",
            "J'ai vendu mon premier petit tableau au marché, encore {subject[obj]}, on dirait que c'est mon truc.",
        ),
        "echo": "Carrément artiste maintenant, regarde-toi !",
        "ask": ("{S} peint quoi à l'aquarelle ?", "Sur ses tableaux, {S} représente quoi ?"),
    },
}

#: Chatter that states no fact; some lines carry the slots' common words (club, vol, jardin, médecin,
#: chien, livre...) as traps for the keyword arm.
FILLER: list[str] = [
    "Il a fait tellement gris toute la semaine que j'ai oublié à quoi ressemble le soleil.",
    "J'ai passé toute la soirée à trier de vieilles photos et j'en ai même pas fait la moitié.",
    "Le boulot, c'était le chaos aujourd'hui, trois réunions au sujet d'une seule réunion.",
    "J'ai testé un nouveau café près de la gare, le café était correct mais le gâteau était incroyable.",
    "Le chien du voisin a aboyé pendant une heure ce matin, j'ai presque pas dormi.",
    "J'ai besoin de vacances, même juste un long week-end quelque part au calme.",
    "On a regardé un documentaire sur les pieuvres hier soir, elles sont beaucoup trop intelligentes.",
    "J'ai enfin nettoyé les placards de la cuisine, tu croirais jamais ce que j'ai trouvé.",
    "Le bus était encore en retard, j'ai attendu sous la pluie pendant vingt minutes.",
    "Je me dis tout le temps qu'il faut que j'appelle ma tante et puis il est déjà dix heures du soir.",
    "Il y a un marché le samedi matin maintenant, surtout du fromage et des bougies.",
    "L'écran de mon téléphone est fissuré, je l'ai fait tomber dans l'escalier comme une andouille.",
    "Au club de lecture, ils ont choisi un livre tellement long que personne ne l'a fini.",
    "Hier j'ai longé l'ancienne école, elle a l'air toute petite maintenant.",
    "Quelqu'un au bureau a apporté des gâteaux et d'un coup tout l'étage s'est tu.",
    "Notre vol retour l'an dernier a eu six heures de retard, je m'en remets toujours pas.",
    "Un saut à la jardinerie pour un seul pot, et me voilà avec douze trucs pour le jardin.",
    "Dans la salle d'attente du médecin, il y avait des magazines d'il y a dix ans.",
    "On a eu une coupure de courant et on a joué aux cartes à la bougie, c'était franchement sympa.",
    "Je dors mal en ce moment, trop d'écrans sûrement.",
    "La salle de sport a encore changé ses horaires, personne n'a prévenu personne.",
    "Mon cousin s'est fiancé, le groupe de discussion de la famille est devenu complètement fou.",
    "J'ai cramé mes tartines deux fois ce matin, c'est ce genre de journée.",
    "Je pense repeindre la salle de bain mais j'arrive pas à choisir une couleur.",
    "Le train était tellement bondé que j'ai lu le journal de quelqu'un par-dessus son épaule.",
    "J'ai essayé la méditation pendant une semaine et j'ai surtout pensé au déjeuner.",
    "Notre rue est encore en travaux, le bruit commence à sept heures.",
    "J'ai trouvé un billet de vingt dans la poche d'un vieux manteau, meilleur jour du mois.",
    "La musique au mariage était nulle mais tout le monde a dansé quand même.",
    "J'ai commandé une lampe en ligne et elle est arrivée en cinq colis séparés.",
    "La voiture de mon amie est tombée en panne sur l'autoroute et j'ai dû aller la secourir.",
    "La bibliothèque ferme plus tôt le vendredi maintenant, c'est dommage.",
    "J'ai passé une heure en attente avec la banque, toujours la même musique en boucle.",
    "On essaie de manger moins de viande, pour l'instant ça se passe bien.",
    "Les enfants d'à côté ont un trampoline et ils sont dessus dès l'aube.",
    "J'ai tellement de retard dans mes mails que j'ai arrêté de les ouvrir.",
    "Il y avait un renard sur la route hier soir, juste assis là.",
    "J'ai acheté de nouvelles chaussures de course et j'ai pas couru une seule fois avec.",
    "Le club de sport au bout de la rue fait une journée portes ouvertes dimanche.",
    "J'ai regardé toute la série en deux jours, aucun regret.",
]
