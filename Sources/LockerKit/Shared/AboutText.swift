import FoundationEssentials

/// The About page: what Locker is, that it is not World Aquatics' and its digest is not the
/// official text, and where its data comes from and under which terms (as `Data/*/README.md`
/// record it). The help overlay ends with it, and `locker --about` prints it.
public enum AboutText {
    /// The page's sections, each a heading and its paragraphs, in the interface language.
    public static func sections(_ l: Localizer) -> [(heading: String, paragraphs: [String])] {
        [
        (l.t("About Locker"),
                 [l.t("Locker is a full-screen terminal app for people who judge, study, train and play: diving rules, penalties, a quiz, grades, workouts and pickup cricket games, plus a console to run a diving meet. This is version {version}.", ["version": LockerVersion.current]),
                  l.t("Locker is not a World Aquatics app, and World Aquatics does not endorse it. The Rules tab shows a digest of the diving rules, written in Locker's own words for study. It is not the official text: the World Aquatics rule book is what decides.")]),
        (l.t("Diving data"),
                 [l.t("Dive tables: Locker works out each degree of difficulty from the component tables of the World Aquatics Diving Rules, 2022–2025 edition in force since 1 January 2024. Its tests check the result against the 950 values tabled there, kept as numbers only, with no text from the rule book."),
                  l.t("Meet rule packs: the World Aquatics packs of locker meet follow the same 2024 edition; every article and page they cite is from it. Their notes paraphrase rather than quote, and each reading chosen where the text leaves room is written down. The custom pack is a template for club meets.")]),
        (l.t("Grades and workout"),
                 [l.t("Grades: the default curriculum is the 2023 licence professionnelle PM at the IUT Clermont Auvergne, from the official table of the course assignment, the same table the student apps UCAverage and Graduator use. Names stay in French, as in the real curriculum, and no marks are filled in."),
                  l.t("Workout: the sample run is synthetic. No person or device recorded it: a script of Locker's generated it, and running that script again gives the same file. It is a 30-minute interval run with heart rate, on a loop of about 5.6 km in Casey, Victoria.")]),
        (l.t("Cricket suburbs and grounds"),
                 [l.t("Suburbs: the postcodes and centres of 30 Casey suburbs are single facts from neiunderscore/melb_suburbs (taken from Wikipedia) and matthewproctor/australianpostcodes. Neither repository has a licence file, and the second partly holds Australia Post data that may not be republished, so no file was copied."),
                  l.t("The older Casey suburbs are those named in a 2004 article in The Age; newer growth-area suburbs such as Clyde North were added from general knowledge. A suburb's centre is only a convention, and 20 of the 30 centres are marked approximate."),
                  l.t("Grounds: Casey Fields is placed by its Wikipedia infobox coordinates. The nine others are named in local reports (Star News cricket fixtures, club news), the City of Casey heritage-walk page and Travel Victoria, none of which gives a position, so each sits on its suburb's centre, marked approximate."),
                  l.t("Maps: the Games tab's map links open OpenStreetMap (openstreetmap.org), whose map data is © OpenStreetMap contributors, available under the Open Database License (ODbL).")]),
        ]
    }
}
