"""Spanish (Spain, informal "tú"): the languages data set's wording (see the package's docstring).

Forms: a pet's ``un`` ("un perro", "una tortuga"), ``el`` ("el perro") and ``al`` ("al perro", "a la
tortuga"); a job is told by its field, so that no sentence depends on the speaker's gender: ``equipo``
("de enfermería", "docente": "el equipo docente") and ``la`` ("la enfermería"); a food's ``a``
("a los cacahuetes", "al marisco"), ``bare`` ("cacahuetes") and ``traza``, the singular mass noun
("trazas de cacahuete"); the sister's job (``job2``) is feminine, ``bare`` ("veterinaria") and ``una``
("una veterinaria"); a colour's ``m`` (after "coche": "rojo") and ``f`` (after "pintura": "roja"); a
dish's ``bare`` ("lasaña") and ``el`` ("la lasaña"); a plant's ``bare`` ("rosas", "lirios") and
``los``, always plural ("las rosas", "los lirios"); an instrument's ``bare`` ("piano") and
``el`` ("el piano"); the other slots only ``bare``, a country's being its name without article.
"""

from __future__ import annotations

CODE = "es"
NAME = "Spanish"


def _bare(*words: str) -> list[dict[str, str]]:
    return [{"bare": w} for w in words]


def _pet(*nouns: tuple[str, str]) -> list[dict[str, str]]:
    """(noun, "m" or "f") -> un/el/al/bare forms."""
    forms = []
    for noun, gender in nouns:
        if gender == "m":
            forms.append({"un": "un " + noun, "el": "el " + noun, "al": "al " + noun, "bare": noun})
        else:
            forms.append({"un": "una " + noun, "el": "la " + noun, "al": "a la " + noun, "bare": noun})
    return forms


SLOTS: dict[str, list[dict[str, str]]] = {
    "pet": _pet(
        ("perro", "m"),
        ("gato", "m"),
        ("conejo", "m"),
        ("loro", "m"),
        ("tortuga", "f"),
        ("hámster", "m"),
        ("hurón", "m"),
        ("pez de colores", "m"),
    ),
    "job": [
        {"equipo": "de enfermería", "la": "la enfermería"},
        {"equipo": "de arquitectura", "la": "la arquitectura"},
        {"equipo": "de contabilidad", "la": "la contabilidad"},
        {"equipo": "docente", "la": "la docencia"},
        {"equipo": "de electricistas", "la": "la electricidad"},
        {"equipo": "de farmacia", "la": "la farmacia"},
        {"equipo": "de traducción", "la": "la traducción"},
        {"equipo": "de carpintería", "la": "la carpintería"},
    ],
    "food": [
        {"a": "a los cacahuetes", "bare": "cacahuetes", "traza": "cacahuete"},
        {"a": "al marisco", "bare": "marisco", "traza": "marisco"},
        {"a": "a las fresas", "bare": "fresas", "traza": "fresa"},
        {"a": "al huevo", "bare": "huevos", "traza": "huevo"},
        {"a": "al sésamo", "bare": "sésamo", "traza": "sésamo"},
        {"a": "a las nueces", "bare": "nueces", "traza": "nuez"},
        {"a": "al apio", "bare": "apio", "traza": "apio"},
        {"a": "a la mostaza", "bare": "mostaza", "traza": "mostaza"},
    ],
    "job2": [
        {"bare": w, "una": "una " + w}
        for w in ("piloto", "veterinaria", "abogada", "chef", "bombera", "periodista", "ingeniera", "panadera")
    ],
    "color": [
        {"m": "rojo", "f": "roja"},
        {"m": "azul", "f": "azul"},
        {"m": "verde", "f": "verde"},
        {"m": "blanco", "f": "blanca"},
        {"m": "negro", "f": "negra"},
        {"m": "plateado", "f": "plateada"},
        {"m": "amarillo", "f": "amarilla"},
        {"m": "gris", "f": "gris"},
    ],
    "country": _bare("Japón", "Perú", "Noruega", "Marruecos", "Vietnam", "Canadá", "Grecia", "Islandia"),
    "sport": _bare("tenis", "natación", "escalada", "remo", "esgrima", "judo", "voleibol", "ciclismo"),
    "dish": [
        {"bare": "lasaña", "el": "la lasaña"},
        {"bare": "paella", "el": "la paella"},
        {"bare": "curry", "el": "el curry"},
        {"bare": "risotto", "el": "el risotto"},
        {"bare": "musaka", "el": "la musaka"},
        {"bare": "gulash", "el": "el gulash"},
        {"bare": "ratatouille", "el": "el ratatouille"},
        {"bare": "dumplings", "el": "los dumplings"},
    ],
    "plant": [
        {"bare": "rosas", "los": "las rosas"},
        {"bare": "tulipanes", "los": "los tulipanes"},
        {"bare": "girasoles", "los": "los girasoles"},
        {"bare": "lirios", "los": "los lirios"},
        {"bare": "narcisos", "los": "los narcisos"},
        {"bare": "dalias", "los": "las dalias"},
        {"bare": "peonías", "los": "las peonías"},
        {"bare": "geranios", "los": "los geranios"},
    ],
    "subject": _bare("faros", "puentes antiguos", "pájaros", "el mar", "montañas", "bosques", "puertos", "molinos"),
    "instrument": [
        {"bare": "piano", "el": "el piano"},
        {"bare": "violonchelo", "el": "el violonchelo"},
        {"bare": "violín", "el": "el violín"},
        {"bare": "guitarra", "el": "la guitarra"},
        {"bare": "trompeta", "el": "la trompeta"},
        {"bare": "flauta", "el": "la flauta"},
        {"bare": "clarinete", "el": "el clarinete"},
        {"bare": "saxofón", "el": "el saxofón"},
    ],
}

FACTS: dict[str, dict] = {
    "pet": {
        "say": (
            "¡Notición! El finde pasado adoptamos {pet[un]} y le pusimos de nombre {petname}.",
            "{petname} se ha pasado toda la noche durmiendo encima de mis pies, no me puedo creer que tardáramos "
            "tanto en tener {pet[un]}.",
        ),
        "echo": "¡{petname} es un nombre monísimo, mándame una foto!",
        "ask": ("¿Qué nombre le puso {S} {pet[al]} que adoptó?", "¿Cómo se llama la nueva mascota de {S}?"),
    },
    "job": {
        "say": (
            "El lunes empiezo en mi nuevo trabajo en {company}, voy a estar en el equipo {job[equipo]}.",
            "Primera semana en {company} superada, allí todo el mundo es un amor y creo que {job[la]} es lo mío.",
        ),
        "echo": "¡{company}, qué pasada, enhorabuena!",
        "ask": ("¿En qué empresa ha empezado {S} un nuevo trabajo?", "¿Quién le paga ahora el sueldo a {S}?"),
    },
    "move": {
        "say": (
            "Por fin nos hemos mudado a {city}, el piso es diminuto pero las vistas son una maravilla.",
            "Seguimos desembalando cajas en la casa nueva de {city}, por las mañanas toda la calle huele a pan.",
        ),
        "echo": "{city} es una preciosidad, me alegro muchísimo por vosotros.",
        "ask": ("¿A qué ciudad se ha mudado {S}?", "¿Dónde vive {S} ahora?"),
    },
    "instrument": {
        "say": (
            "He empezado a ir a clases de {instrument[bare]} todos los martes por la tarde.",
            "Mi profe dice que las escalas me salen cada vez mejor, ahora practico {instrument[el]} una hora al día.",
        ),
        "echo": "¡Me encantaría oírte tocar algún día!",
        "ask": ("¿De qué instrumento va a clases {S}?", "¿Qué practica {S} todos los días?"),
    },
    "allergy": {
        "say": (
            "Me lo ha confirmado el médico: tengo alergia {food[a]}, así que se acabó para mí.",
            "Ahora tengo que leerme todas las etiquetas, con unas mínimas trazas de {food[traza]} se me hincha la "
            "garganta.",
        ),
        "echo": "Qué rollo para ir a restaurantes, ¿no?",
        "ask": ("¿A qué tiene alergia {S}?", "¿Qué comida le sienta mal a {S}?"),
    },
    "sister": {
        "say": (
            "Mi hermana {sibname} acaba de sacarse el título de {job2[bare]}, estamos todos orgullosísimos de ella.",
            "{sibname} ha aprobado los exámenes finales, así que ya hay {job2[una]} en la familia.",
        ),
        "echo": "Dale la enhorabuena a {sibname} de mi parte.",
        "ask": ("¿De qué se ha sacado el título {sibname}, la hermana de {S}?", "¿A qué se dedica {sibname}?"),
    },
    "car": {
        "say": (
            "Por fin me he comprado un coche, un {brand} {color[m]}, de segunda mano pero va perfecto.",
            "El domingo me llevé el {brand} a la costa, con el sol la pintura {color[f]} queda espectacular.",
        ),
        "echo": "¡Uy! Entonces, ¿se viene escapada pronto?",
        "ask": ("¿Qué coche se ha comprado {S}?", "¿Qué conduce {S} ahora?"),
    },
    "book": {
        "say": (
            "Estoy leyendo una novela que se llama {title} y, de verdad, no puedo dejar de leerla.",
            "Me quedé hasta las dos de la mañana terminando {title}, con el final acabé llorando en el sofá.",
        ),
        "echo": "¿Me lo dejas cuando lo termines?",
        "ask": ("¿Qué novela está leyendo {S}?", "¿Qué título tuvo a {S} en vela hasta las dos?"),
    },
    "trip": {
        "say": (
            "Ya hemos reservado el viaje de verano: tres semanas en {country[bare]} en agosto.",
            "Estoy aprendiendo cuatro frases para agosto, volamos a {country[bare]} y nos quedamos tres semanas.",
        ),
        "echo": "¡Tres semanas, qué envidia!",
        "ask": ("¿Adónde se va {S} de viaje este verano?", "¿Qué país va a visitar {S} en agosto?"),
    },
    "sport": {
        "say": (
            "Me he apuntado a un club de {sport[bare]}, entrenamos los miércoles y los sábados.",
            "Tengo las piernas destrozadas del entrenamiento de {sport[bare]} del sábado, el entrenador no tiene "
            "piedad.",
        ),
        "echo": "¡Bien por ti! Yo casi no soy capaz de levantarme del sofá.",
        "ask": ("¿A qué club se ha apuntado {S}?", "¿Qué deporte practica {S} los miércoles?"),
    },
    "flight": {
        "say": (
            "Mi vuelo del viernes que viene es el {code}, sale a las siete de la mañana.",
            "¿Puedes recogerme en el aeropuerto el viernes? Llego en el {code} sobre mediodía.",
        ),
        "echo": "Claro, escríbeme cuando aterrices.",
        "ask": ("¿Cuál es el número de vuelo de {S} el viernes que viene?", "¿Qué avión va a coger {S}?"),
    },
    "dish": {
        "say": (
            "Por fin he aprendido a cocinar {dish[bare]} como es debido, con la receta de mi abuela.",
            "El domingo hice {dish[el]} de mi abuela para todos y no sobró absolutamente nada.",
        ),
        "echo": "La próxima vez invítame, porfa.",
        "ask": ("¿Qué plato ha aprendido a cocinar {S}?", "¿Qué preparó {S} con la receta de su abuela?"),
    },
    "child": {
        "say": (
            "Mi hijo {childname} cumple {age} años el mes que viene y quiere una fiesta con mago.",
            "{childname} está contando los días que le quedan para cumplir {age}, no habla de otra cosa.",
        ),
        "echo": "¡Un mago, qué divertido!",
        "ask": (
            "¿Cuántos años va a cumplir {childname}, el hijo de {S}?",
            "¿Qué edad está deseando tener {childname}?",
        ),
    },
    "dentist": {
        "say": (
            "Tengo dentista nuevo, el Dr. {docname}, y por una vez no me ha dolido nada.",
            "El Dr. {docname} me arregló la muela en diez minutos, no pienso volver a la clínica de antes.",
        ),
        "echo": "Pásame el nombre, que yo también necesito uno.",
        "ask": ("¿Quién es el nuevo dentista de {S}?", "¿Qué médico le arregló la muela a {S}?"),
    },
    "garden": {
        "say": (
            "Esta primavera he plantado {plant[bare]} a lo largo de toda la valla del jardín.",
            "Por fin han florecido {plant[los]} de la valla y a las abejas les encantan.",
        ),
        "echo": "Me tienes que enseñar el jardín.",
        "ask": ("¿Qué ha plantado {S} a lo largo de la valla?", "¿Qué flores han salido en el jardín de {S}?"),
    },
    "painting": {
        "say": (
            "Me he aficionado a la acuarela, pinto sobre todo {subject[bare]}.",
            "He vendido mi primer cuadrito en el mercadillo, otra vez {subject[bare]}, parece que es lo mío.",
        ),
        "echo": "Ahora resulta que eres artista, ¡qué nivel!",
        "ask": ("¿Qué pinta {S} en acuarela?", "¿Qué aparece en los cuadros de {S}?"),
    },
}

#: Chatter that states no fact; some lines carry the slots' common words (club, vuelo, jardinería,
#: médico, perro, libro...) as traps for the keyword arm.
FILLER: list[str] = [
    "Llevamos toda la semana con un tiempo gris, ya ni me acuerdo de cómo es el sol.",
    "Me he pasado la tarde entera ordenando fotos antiguas y no he llegado ni a la mitad.",
    "Hoy el trabajo ha sido un caos, tres reuniones para hablar de una reunión.",
    "Probé una cafetería nueva al lado de la estación, el café normalito pero la tarta estaba espectacular.",
    "El perro del vecino se ha pasado una hora ladrando esta mañana, voy sin dormir.",
    "Necesito unas vacaciones, aunque sea un fin de semana largo en algún sitio tranquilo.",
    "Anoche vimos un documental sobre pulpos, son demasiado listos.",
    "Por fin he limpiado los armarios de la cocina, no te creerías lo que he encontrado.",
    "El autobús volvió a llegar tarde, estuve veinte minutos esperando bajo la lluvia.",
    "Siempre quiero llamar a mi tía y, cuando me doy cuenta, son las diez de la noche.",
    "Ahora hay mercadillo los sábados por la mañana, casi todo quesos y velas.",
    "Se me ha roto la pantalla del móvil, se me cayó por las escaleras, qué torpeza.",
    "En el club de lectura han elegido un libro tan largo que nadie se lo ha terminado.",
    "Ayer pasé por delante de mi antiguo colegio, ahora parece diminuto.",
    "Alguien de la oficina trajo pasteles y se hizo el silencio en toda la planta.",
    "El año pasado nuestro vuelo de vuelta se retrasó seis horas, todavía no me he recuperado.",
    "Fui al centro de jardinería a por una maceta y salí con doce cosas.",
    "En la sala de espera del médico había revistas de hace diez años.",
    "Se fue la luz y jugamos a las cartas a la luz de las velas, la verdad es que estuvo bien.",
    "Estoy durmiendo fatal, seguramente por pasar demasiado tiempo delante de las pantallas.",
    "El gimnasio ha vuelto a cambiar el horario y no ha avisado a nadie.",
    "Mi prima se ha prometido y el grupo de la familia se ha vuelto loco.",
    "Esta mañana he quemado las tostadas dos veces, hoy es uno de esos días.",
    "Estoy pensando en volver a pintar el baño, pero no me decido por ningún color.",
    "El tren iba tan lleno que acabé leyendo el periódico de otro por encima de su hombro.",
    "Probé a meditar una semana y me la pasé casi entera pensando en la comida.",
    "Están levantando otra vez nuestra calle, el ruido empieza a las siete.",
    "Me encontré veinte euros en el bolsillo de un abrigo viejo, el mejor día del mes.",
    "La música de la boda era horrible, pero todo el mundo bailó igualmente.",
    "Pedí una lámpara por internet y llegó en cinco cajas distintas.",
    "A una amiga se le estropeó el coche en la autopista y tuve que ir a rescatarla.",
    "Ahora la biblioteca cierra antes los viernes, qué pena.",
    "Me pasé una hora en espera con el banco, con la misma musiquita una y otra vez.",
    "Estamos intentando comer menos carne y, de momento, va bien.",
    "Los niños de al lado tienen una cama elástica y están saltando desde que amanece.",
    "Tengo tantos correos pendientes que he dejado de abrirlos.",
    "Anoche había un zorro en medio de la carretera, ahí sentado sin más.",
    "Me compré unas zapatillas nuevas para correr y todavía no he salido a correr con ellas ni una vez.",
    "El club deportivo de la calle de abajo hace una jornada de puertas abiertas el domingo.",
    "Me he visto la serie entera en dos días, y no me arrepiento.",
]
