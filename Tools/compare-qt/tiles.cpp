// The Qt 6 Widgets side of Tools/wayland-perf: the kiosk example's graphical face (its home screen, as
// Sources/KioskExample/Graphical draws it with screenDrawing .nodes) as a Qt app, run under a Wayland
// compositor (QT_QPA_PLATFORM=wayland) beside ours. A full-screen window laid out as the kiosk's
// KioskMetrics lay it out for the window's size: a header (a gradient, the clinic's SVG logo, a large
// title, a tagline, a greeting), a menu card with three navigation buttons (icon and title, Home
// selected), the heading "How can we help you today?", six large tiles with rounded corners (a
// shadow, a coloured plate with an SVG icon, a title, a subtitle) and the message line with its F1
// keycap. Colours, sizes and fonts (Noto Sans at the kiosk's pixel sizes) are the kiosk's.
//
// Focus as the kiosk shows it: a focused tile is lifted (drawn 1.04x larger over a soft shadow,
// outlined in its colour), a focused menu button gets a 4-point ring in the focus colour. The arrows
// move within a group by geometry (Left and Right among the tiles, Up and Down in the menu); Tab and
// Shift+Tab move to the other group, to the item it had last (QWidget::focusNextPrevChild, as a Qt
// app changes its tab order). What is repainted is what Qt repaints by itself: QWidget's own
// focusInEvent and focusOutEvent update() the two widgets, each as large as the kiosk's damage for
// that item (its frame and its focus effect's reach), and Qt paints whatever those rectangles cover.
//
// Drawn as a Qt developer would: QPainter in paintEvent, drawText each time (Qt keeps no text
// layouts; our renderer keeps Pango's), the SVGs parsed once by QSvgRenderer and rendered once per
// size into QPixmapCache (as QIcon does, and as our renderer keeps images per device size), shadows
// blurred once per size with the blur QGraphicsDropShadowEffect uses and kept there too (our renderer
// keeps its shadow masks).
//
//   tiles-qt ART_DIR    ART_DIR: logo.svg and one NAME.body per icon (the shapes inside the kiosk's
//                       48-point icon template), which Tools/wayland-perf extracts from the kiosk's
//                       Sources/KioskExample/Graphical/Artwork.swift
//
// Runs until killed.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFocusEvent>
#include <QHash>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QPixmapCache>
#include <QSvgRenderer>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

// The blur behind QGraphicsDropShadowEffect and QGraphicsBlurEffect, exported by QtWidgets (declared in
// its private qpixmapfilter_p.h).
void qt_blurImage(QImage &blurImage, qreal radius, bool quality, int transposed = 0);

namespace {

// KioskAppearance.riverside's colours.
const QColor accent(0x0B6E70), background(0xEEF3F3), surface(Qt::white), ink(0x122A2E);
const QColor secondaryInk(0x4A5F63), outline(0xC9D6D7), focusColor(0xD1460F), shade(0x0B2A2E);

QColor withAlpha(QColor color, double alpha) {
    color.setAlphaF(float(alpha));
    return color;
}

// KioskMetrics: a unit that is 1 at 1280x800 (from 0.75 to 1.5) and the bands of the screen.
struct Metrics {
    QSizeF size;
    double unit = 1, margin = 24, gap = 16, header = 96, footer = 60, sidebar = 300, control = 68, corner = 20;

    explicit Metrics(QSizeF size = QSizeF(1280, 800)) : size(size) {
        unit = std::min(1.5, std::max(0.75, std::min(size.width() / 1280, size.height() / 800)));
        margin = std::round(24 * unit);
        gap = std::round(16 * unit);
        header = std::round(96 * unit);
        footer = std::round(60 * unit);
        sidebar = std::round(std::min(300 * unit, size.width() * 0.26));
        const double minimumTarget = size.width() >= 1280 && size.height() >= 720 ? 60 : 48;
        control = std::max(minimumTarget, std::round(68 * unit));
        corner = std::round(20 * unit);
    }
    double u(double points) const { return std::round(points * unit); }
    QRectF body() const {
        return QRectF(margin, header + margin, size.width() - 2 * margin,
                      size.height() - header - footer - 2 * margin);
    }
};

// The kiosk's Rect helpers, left to right.
QRectF leading(const QRectF &r, double width) { return QRectF(r.left(), r.top(), width, r.height()); }
QRectF trailing(const QRectF &r, double width) { return QRectF(r.right() - width, r.top(), width, r.height()); }
QRectF droppingLeading(const QRectF &r, double width) {
    return QRectF(r.left() + width, r.top(), std::max(0.0, r.width() - width), r.height());
}
QRectF centeredSquare(const QRectF &r, double side) {
    return QRectF(r.center().x() - side / 2, r.center().y() - side / 2, side, side);
}

QFont kioskFont(const Metrics &metrics, double size, QFont::Weight weight = QFont::Normal) {
    QFont result("Noto Sans");
    result.setPixelSize(int(std::lround(size * metrics.unit)));
    result.setWeight(weight);
    return result;
}

void text(QPainter &painter, const QRectF &rect, const QString &words, const QFont &font, const QColor &color,
          int flags = Qt::AlignLeft | Qt::AlignVCenter) {
    painter.setFont(font);
    painter.setPen(color);
    painter.drawText(rect, flags, words);
}

// The kiosk's pictures: the SVGs parsed once, each rendered once per size and ink into QPixmapCache.
class Art {
public:
    bool load(const QString &directory) {
        QFile logoFile(QDir(directory).filePath("logo.svg"));
        if (!logoFile.open(QIODevice::ReadOnly)) return false;
        documents.insert("logo", logoFile.readAll());
        for (const QString &name : QDir(directory).entryList({"*.body"}, QDir::Files)) {
            QFile file(QDir(directory).filePath(name));
            if (file.open(QIODevice::ReadOnly)) bodies.insert(name.chopped(5), file.readAll());
        }
        return bodies.size() >= 5;
    }

    // Draws an image fitted to a square rectangle: the logo, or an icon in one colour.
    void draw(QPainter &painter, const QString &name, const QRectF &rect, const QColor &color = QColor()) {
        const QSize size = rect.size().toSize();
        if (size.isEmpty()) return;
        const QString key = QString("art:%1:%2:%3x%4").arg(name).arg(color.rgba()).arg(size.width()).arg(size.height());
        QPixmap pixmap;
        if (!QPixmapCache::find(key, &pixmap)) {
            QImage image(size, QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::transparent);
            QPainter imagePainter(&image);
            renderer(name, color)->render(&imagePainter, QRectF(QPointF(0, 0), size));
            imagePainter.end();
            pixmap = QPixmap::fromImage(image);
            QPixmapCache::insert(key, pixmap);
        }
        painter.drawPixmap(QPointF(std::round(rect.left()), std::round(rect.top())), pixmap);
    }

private:
    QHash<QString, QByteArray> documents, bodies;
    std::vector<std::unique_ptr<QSvgRenderer>> renderers;
    QHash<QString, QSvgRenderer *> parsed;

    // The parsed document: the logo, or the icon in the kiosk's template (Artwork.image(_:ink:)).
    QSvgRenderer *renderer(const QString &name, const QColor &color) {
        const QString key = name + color.name();
        if (QSvgRenderer *found = parsed.value(key)) return found;
        QByteArray document = documents.value(name);
        if (document.isEmpty()) {
            const QByteArray inkValue = color.name().toUpper().toLatin1();
            document = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48\" height=\"48\" viewBox=\"0 0 48 48\" "
                       "fill=\"none\" stroke=\"" + inkValue + "\" stroke-width=\"3.5\" stroke-linecap=\"round\" "
                       "stroke-linejoin=\"round\">\n" + bodies.value(name) + "\n</svg>";
            document.replace("\"INK\"", "\"" + inkValue + "\"");
        }
        renderers.push_back(std::make_unique<QSvgRenderer>(document));
        parsed.insert(key, renderers.back().get());
        return renderers.back().get();
    }
};

Art art;

// A rounded rectangle's soft shadow: blurred once per size, radius and colour, kept in QPixmapCache.
void shadow(QPainter &painter, const QRectF &rect, double corner, double radius, QPointF offset, const QColor &color) {
    const int pad = int(std::ceil(2 * radius));
    const QSize size(int(std::ceil(rect.width())) + 2 * pad, int(std::ceil(rect.height())) + 2 * pad);
    const QString key = QString("shadow:%1x%2:%3:%4:%5")
                            .arg(size.width()).arg(size.height()).arg(corner).arg(radius).arg(color.rgba());
    QPixmap pixmap;
    if (!QPixmapCache::find(key, &pixmap)) {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter imagePainter(&image);
        imagePainter.setRenderHint(QPainter::Antialiasing);
        imagePainter.setPen(Qt::NoPen);
        imagePainter.setBrush(color);
        imagePainter.drawRoundedRect(QRectF(pad, pad, rect.width(), rect.height()), corner, corner);
        imagePainter.end();
        qt_blurImage(image, radius, true);
        pixmap = QPixmap::fromImage(image);
        QPixmapCache::insert(key, pixmap);
    }
    painter.drawPixmap(rect.topLeft() + offset - QPointF(pad, pad), pixmap);
}

void roundedFill(QPainter &painter, const QRectF &rect, double corner, const QColor &color) {
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawRoundedRect(rect, corner, corner);
}

void roundedStroke(QPainter &painter, const QRectF &rect, double corner, const QColor &color, double width) {
    painter.setPen(QPen(color, width));
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(rect, corner, corner);
}

class Kiosk;
class Header;
class Footer;
class Card;
class Heading;
class NavigationButton;
class Tile;

// A widget drawn in the window's coordinates (the kiosk's frames): its geometry is its frame grown by
// what its drawing and focus effect can reach, and it paints with that offset undone.
class Item : public QWidget {
public:
    Item(Kiosk *kiosk, QWidget *parent) : QWidget(parent), kiosk(kiosk) {}
    QRectF frame;

    void place(const QRectF &newFrame, double left, double top, double right, double bottom) {
        frame = newFrame;
        setGeometry(QRectF(frame.left() - left, frame.top() - top, frame.width() + left + right,
                           frame.height() + top + bottom)
                        .toAlignedRect());
    }

protected:
    Kiosk *kiosk;

    void paintEvent(QPaintEvent *) override {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        painter.translate(-geometry().topLeft());
        paint(painter);
    }
    virtual void paint(QPainter &painter) = 0;
};

class Kiosk : public QWidget {
public:
    Metrics metrics;
    explicit Kiosk();
    void remember(QWidget *item);
    void move(QWidget *from, int dx, int dy);

protected:
    void resizeEvent(QResizeEvent *) override { layOut(); }
    bool focusNextPrevChild(bool) override;

private:
    Header *header;
    Footer *footer;
    Card *card;
    Heading *heading;
    std::vector<NavigationButton *> menu;
    std::vector<Tile *> tiles;
    QWidget *lastTile = nullptr, *lastMenuItem = nullptr;
    void layOut();
};

// The header: the gradient, the logo, the clinic's name, the tagline and the greeting.
class Header : public Item {
public:
    using Item::Item;

protected:
    void paint(QPainter &painter) override {
        const Metrics &m = kiosk->metrics;
        QLinearGradient gradient(frame.topLeft(), frame.bottomLeft());
        gradient.setColorAt(0, QColor(0x137A7C));
        gradient.setColorAt(1, QColor(0x0B5A60));
        painter.fillRect(frame, gradient);
        const QRectF inner = frame.adjusted(m.margin, 0, -m.margin, 0);
        const double logoSide = std::round(m.header - 2 * (14 * m.unit));
        art.draw(painter, "logo", centeredSquare(leading(inner, logoSide), logoSide));
        const QRectF words = droppingLeading(inner, logoSide + m.u(18));
        const double half = std::round(words.width() * 0.55);
        const QRectF titles = leading(words, half);
        const double middle = frame.center().y();
        text(painter, QRectF(titles.left(), frame.top(), titles.width(), middle + 4 * m.unit), "Riverside Clinic",
             kioskFont(m, 34, QFont::Bold), Qt::white, Qt::AlignLeft | Qt::AlignBottom);
        text(painter, QRectF(titles.left(), middle + 6 * m.unit, titles.width(), frame.bottom() - middle - 6 * m.unit),
             "Self-service check-in", kioskFont(m, 19), withAlpha(Qt::white, 0.88), Qt::AlignLeft | Qt::AlignTop);
        // Elided where it does not fit (800x600), as the kiosk's Pango layout is.
        const QRectF greeting = trailing(words, words.width() - half - m.gap);
        const QFont greetingFont = kioskFont(m, 20, QFont::Medium);
        text(painter, greeting,
             QFontMetricsF(greetingFont).elidedText(
                 QString::fromUtf8("Welcome · Bienvenue · Willkommen · 欢迎 · Witamy"), Qt::ElideRight,
                 greeting.width()),
             greetingFont, withAlpha(Qt::white, 0.92), Qt::AlignRight | Qt::AlignVCenter);
    }
};

// The message line: the info icon, the message and the F1 keycap.
class Footer : public Item {
public:
    using Item::Item;

protected:
    void paint(QPainter &painter) override {
        const Metrics &m = kiosk->metrics;
        painter.fillRect(frame, surface);
        painter.fillRect(QRectF(frame.left(), frame.top(), frame.width(), 1), outline);
        const QRectF line = frame.adjusted(m.margin, 0, -m.margin, 0);
        const double iconSide = m.u(28);
        art.draw(painter, "info", centeredSquare(leading(line, iconSide), iconSide), accent);
        const double hintWidth = m.u(170);
        const QRectF words = droppingLeading(line, iconSide + m.u(14));
        text(painter, leading(words, words.width() - hintWidth),
             "Welcome. Choose a tile with the arrows and Return; F1 shows the keys.", kioskFont(m, 21), ink);
        // "F1 Help": the key as a keycap, then what it does.
        const QRectF hint = trailing(line, hintWidth);
        const double capWidth = m.u(44), capHeight = m.u(32);
        const QFont helpFont = kioskFont(m, 19);
        const double helpWidth =
            std::min(hint.width() - capWidth - 10 * m.unit, double(QFontMetricsF(helpFont).horizontalAdvance("Help")));
        text(painter, trailing(hint, helpWidth), "Help", helpFont, secondaryInk, Qt::AlignRight | Qt::AlignVCenter);
        const QRectF capColumn = leading(trailing(hint, helpWidth + 10 * m.unit + capWidth), capWidth);
        const QRectF cap(capColumn.left(), hint.center().y() - capHeight / 2, capWidth, capHeight);
        roundedFill(painter, cap, 7 * m.unit, background);
        roundedStroke(painter, cap.adjusted(0.5, 0.5, -0.5, -0.5), 7 * m.unit, outline, 1);
        painter.fillRect(QRectF(cap.left() + 4, cap.bottom() - 2, cap.width() - 8, 1), outline);
        text(painter, cap, "F1", kioskFont(m, 16, QFont::DemiBold), ink, Qt::AlignCenter);
    }
};

// The menu's card: a white card with a soft shadow and a hairline, its heading and the note at its foot.
class Card : public Item {
public:
    using Item::Item;
    double entriesBottom = 0;

protected:
    void paint(QPainter &painter) override {
        const Metrics &m = kiosk->metrics;
        shadow(painter, frame, m.corner, 8, QPointF(0, 2), withAlpha(shade, 0.08));
        roundedFill(painter, frame, m.corner, surface);
        roundedStroke(painter, frame.adjusted(0.5, 0.5, -0.5, -0.5), m.corner, withAlpha(outline, 0.7), 1);
        const QRectF headingBand =
            QRectF(frame.left(), frame.top(), frame.width(), m.u(60)).adjusted(m.u(28), 0, -m.u(28), 0);
        text(painter, headingBand, "Menu", kioskFont(m, 18, QFont::DemiBold), secondaryInk);
        const QRectF inner = frame.adjusted(m.u(24), m.u(22), -m.u(24), -m.u(22));
        const double noteHeight = m.u(84);
        if (inner.bottom() - noteHeight <= entriesBottom + m.gap) return;
        const QRectF note(inner.left(), inner.bottom() - noteHeight, inner.width(), noteHeight);
        const double side = m.u(28);
        art.draw(painter, "help", QRectF(note.left(), note.top(), side, side), secondaryInk);
        text(painter, droppingLeading(note, side + m.u(12)), "Need a hand? Ask us at the reception desk.",
             kioskFont(m, 18), secondaryInk, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap);
    }
};

// The content area's heading.
class Heading : public Item {
public:
    using Item::Item;

protected:
    void paint(QPainter &painter) override {
        text(painter, frame, "How can we help you today?", kioskFont(kiosk->metrics, 32, QFont::Bold), ink);
    }
};

// A menu entry: its icon and title, filled with the brand's colour while its screen shows; a ring when
// focused (the painter's automatic focus effect: 4 points wide, 3 points out).
class NavigationButton : public Item {
public:
    NavigationButton(Kiosk *kiosk, QWidget *parent, QString icon, QString title, bool selected)
        : Item(kiosk, parent), icon(std::move(icon)), title(std::move(title)), selected(selected) {
        setFocusPolicy(Qt::StrongFocus);
    }
    static constexpr double ringReach = 3 + 4 + 1;

protected:
    void paint(QPainter &painter) override {
        const Metrics &m = kiosk->metrics;
        if (selected) roundedFill(painter, frame, m.corner, accent);
        const QRectF inner = frame.adjusted(m.u(20), 0, -m.u(20), 0);
        const double side = m.u(30);
        art.draw(painter, icon, centeredSquare(leading(inner, side), side), selected ? Qt::white : accent);
        text(painter, droppingLeading(inner, side + m.u(16)), title,
             kioskFont(m, 23, selected ? QFont::DemiBold : QFont::Medium), selected ? Qt::white : ink);
        if (hasFocus()) {
            const double offset = 3 + 4.0 / 2;
            roundedStroke(painter, frame.adjusted(-offset, -offset, offset, offset), m.corner + offset, focusColor, 4);
        }
    }
    void focusInEvent(QFocusEvent *event) override {
        kiosk->remember(this);
        QWidget::focusInEvent(event);  // update()
    }
    void keyPressEvent(QKeyEvent *event) override {
        if (event->key() == Qt::Key_Up || event->key() == Qt::Key_Down) {
            kiosk->move(this, 0, event->key() == Qt::Key_Up ? -1 : 1);
            return;
        }
        QWidget::keyPressEvent(event);
    }

private:
    QString icon, title;
    bool selected;
};

// A home tile: a white card with a soft shadow, the tile's colour as a plate behind its icon, the title
// and the subtitle; focused, outlined in its colour and lifted (tvOS's lift: 1.04x over a larger shadow).
class Tile : public Item {
public:
    Tile(Kiosk *kiosk, QWidget *parent, QString icon, QColor color, QString title, QString subtitle)
        : Item(kiosk, parent), icon(std::move(icon)), color(color), title(std::move(title)),
          subtitle(std::move(subtitle)) {
        setFocusPolicy(Qt::StrongFocus);
    }
    static constexpr double liftScale = 1.04, liftRadius = 22, liftOffset = 10, outset = 14;

    // What the tile can cover when lifted (FocusEffect.reach and the drawing outset, as the painter
    // damages it): left, top, right, bottom.
    void placeTile(const QRectF &newFrame) {
        const double growX = newFrame.width() * (liftScale - 1) / 2 + 1;
        const double growY = newFrame.height() * (liftScale - 1) / 2 + 1;
        place(newFrame, std::max(outset, growX + liftRadius), std::max(outset, growY + liftRadius - liftOffset),
              std::max(outset, growX + liftRadius), std::max(outset, growY + liftRadius + liftOffset));
    }

protected:
    void paint(QPainter &painter) override {
        const Metrics &m = kiosk->metrics;
        const bool focused = hasFocus();
        if (focused) {
            painter.translate(frame.center());
            painter.scale(liftScale, liftScale);
            painter.translate(-frame.center());
            shadow(painter, frame, m.corner, liftRadius, QPointF(0, liftOffset), withAlpha(shade, 0.22));
            roundedFill(painter, frame, m.corner, background);
        }
        shadow(painter, frame, m.corner, 10, QPointF(0, 3), withAlpha(shade, 0.10));
        roundedFill(painter, frame, m.corner, surface);
        if (focused) {
            roundedStroke(painter, frame.adjusted(1.5, 1.5, -1.5, -1.5), m.corner - 1.5, color, 3);
        } else {
            roundedStroke(painter, frame.adjusted(0.5, 0.5, -0.5, -0.5), m.corner, outline, 1);
        }
        const double padding = m.u(24);
        const QRectF content = frame.adjusted(padding, padding, -padding, -padding);
        const double plateSide = std::min(m.u(76), content.height() * 0.45);
        const QRectF plate(content.left(), content.top(), plateSide, plateSide);
        roundedFill(painter, plate, plateSide * 0.28, color);
        art.draw(painter, icon, centeredSquare(plate, plateSide * 0.6), Qt::white);
        const double subtitleHeight = m.u(30);
        text(painter, QRectF(content.left(), content.bottom() - subtitleHeight, content.width(), subtitleHeight),
             subtitle, kioskFont(m, 21), secondaryInk, Qt::AlignLeft | Qt::AlignBottom);
        const double titleBottom = content.bottom() - subtitleHeight - 4 * m.unit;
        const double titleTop = plate.bottom() + 8 * m.unit;
        text(painter, QRectF(content.left(), titleTop, content.width(), std::max(0.0, titleBottom - titleTop)), title,
             kioskFont(m, 30, QFont::DemiBold), ink, Qt::AlignLeft | Qt::AlignBottom | Qt::TextWordWrap);
    }
    void focusInEvent(QFocusEvent *event) override {
        raise();  // lifted over its neighbours
        kiosk->remember(this);
        QWidget::focusInEvent(event);  // update()
    }
    void keyPressEvent(QKeyEvent *event) override {
        switch (event->key()) {
        case Qt::Key_Left: kiosk->move(this, -1, 0); return;
        case Qt::Key_Right: kiosk->move(this, 1, 0); return;
        case Qt::Key_Up: kiosk->move(this, 0, -1); return;
        case Qt::Key_Down: kiosk->move(this, 0, 1); return;
        default: QWidget::keyPressEvent(event);
        }
    }

private:
    QString icon;
    QColor color;
    QString title, subtitle;
};

Kiosk::Kiosk() {
    setWindowTitle("Riverside Clinic");
    QPalette colors = palette();
    colors.setColor(QPalette::Window, background);
    setPalette(colors);
    setAutoFillBackground(true);
    header = new Header(this, this);
    footer = new Footer(this, this);
    card = new Card(this, this);
    heading = new Heading(this, this);
    menu = {new NavigationButton(this, this, "home", "Home", true),
            new NavigationButton(this, this, "directory", "Directory", false),
            new NavigationButton(this, this, "checkIn", "Check in", false)};
    struct Spec {
        const char *icon;
        QRgb color;
        const char *title, *subtitle;
    };
    static const Spec specs[] = {
        {"checkIn", 0x0E7C7B, "Check in", "appointments"}, {"directory", 0x2F64C8, "Directory", "people, rooms"},
        {"hours", 0xB8620B, "Opening hours", "this week"},  {"pharmacy", 0x2E8540, "Pharmacy", "prescriptions"},
        {"parking", 0x5A4FC4, "Parking", "tickets"},        {"help", 0x9C3F8C, "Help", "the keys, F1"},
    };
    for (const Spec &spec : specs)
        tiles.push_back(new Tile(this, this, spec.icon, QColor(spec.color), spec.title, spec.subtitle));
    lastTile = tiles.front();
    lastMenuItem = menu.front();
    tiles.front()->setFocus();  // the kiosk opens on its first tile
}

// Kiosk.layout(points:) for the home screen.
void Kiosk::layOut() {
    metrics = Metrics(QSizeF(size()));
    const Metrics &m = metrics;
    header->place(QRectF(0, 0, width(), m.header), 0, 0, 0, 0);
    footer->place(QRectF(0, height() - m.footer, width(), m.footer), 0, 0, 0, 0);
    const QRectF body = m.body();
    const QRectF sidebar(body.left(), body.top(), m.sidebar, body.height());
    card->place(sidebar, 8, 6, 8, 10);  // its shadow's reach
    double y = sidebar.top() + m.u(60);
    const double inset = m.u(12);
    for (NavigationButton *button : menu) {
        const double r = NavigationButton::ringReach;
        button->place(QRectF(sidebar.left() + inset, y, sidebar.width() - 2 * inset, m.control), r, r, r, r);
        card->entriesBottom = y + m.control;
        y += m.control + m.u(8);
    }
    const QRectF content(sidebar.right() + m.margin, body.top(), body.right() - sidebar.right() - m.margin,
                         body.height());
    const double headingHeight = m.u(64);
    heading->place(QRectF(content.left(), content.top(), content.width(), headingHeight - m.gap), 0, 0, 0, 0);
    const QRectF area(content.left(), content.top() + headingHeight, content.width(), content.height() - headingHeight);
    const double spacing = m.gap * 1.5;
    const double tileWidth = std::floor((area.width() - 2 * spacing) / 3);
    const double tileHeight = std::floor((area.height() - spacing) / 2);
    for (size_t index = 0; index < tiles.size(); ++index) {
        const double column = double(index % 3), row = double(index / 3);
        tiles[index]->placeTile(QRectF(area.left() + column * (tileWidth + spacing),
                                       area.top() + row * (tileHeight + spacing), tileWidth, tileHeight));
    }
    if (QWidget *focused = focusWidget()) focused->raise();
}

void Kiosk::remember(QWidget *item) {
    if (std::find(tiles.begin(), tiles.end(), item) != tiles.end()) lastTile = item; else lastMenuItem = item;
}

// Tab and Shift+Tab: to the other group's item (two groups: either way is the other one).
bool Kiosk::focusNextPrevChild(bool next) {
    const bool inTiles = std::find(tiles.begin(), tiles.end(), focusWidget()) != tiles.end();
    (inTiles ? lastMenuItem : lastTile)->setFocus(next ? Qt::TabFocusReason : Qt::BacktabFocusReason);
    return true;
}

// Moves focus within the group of `from` to the nearest item whose centre lies in the direction
// (dx, dy): the distance along it plus twice the distance across it, the smallest wins.
void Kiosk::move(QWidget *from, int dx, int dy) {
    std::vector<QWidget *> group;
    if (std::find(tiles.begin(), tiles.end(), from) != tiles.end()) group.assign(tiles.begin(), tiles.end());
    else group.assign(menu.begin(), menu.end());
    const QPointF origin = static_cast<Item *>(from)->frame.center();
    QWidget *best = nullptr;
    double bestScore = std::numeric_limits<double>::infinity();
    for (QWidget *item : group) {
        if (item == from) continue;
        const QPointF delta = static_cast<Item *>(item)->frame.center() - origin;
        const double along = delta.x() * dx + delta.y() * dy;
        if (along <= 0) continue;
        const double score = along + 2 * (std::abs(delta.x() * dy) + std::abs(delta.y() * dx));
        if (score < bestScore) {
            bestScore = score;
            best = item;
        }
    }
    if (best) best->setFocus(Qt::OtherFocusReason);
}

}  // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    if (argc < 2 || !art.load(argv[1])) {
        std::fprintf(stderr, "usage: tiles-qt ART_DIR (logo.svg and the icons' NAME.body files)\n");
        return 2;
    }
    Kiosk kiosk;
    kiosk.showFullScreen();
    return app.exec();
}
