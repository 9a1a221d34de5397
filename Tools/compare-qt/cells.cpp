// The Qt 6 Widgets side of Tools/wayland-perf for the kiosk's terminal face (WAYLAND_PERF_FACE=cells): the
// kiosk example's home screen in cells as a Qt app (tiles.cpp is its graphical face), run
// under a Wayland compositor (QT_QPA_PLATFORM=wayland) beside ours. A full-screen window: a title
// line, a menu, a grid of tiles (6 like the kiosk's home, three columns; `cells-qt N` for another
// count), a hint line and the kiosk's three status lines, the first of which names the focused tile.
// The arrow keys move focus to the nearest tile in their direction (by geometry, as the kiosk's
// focus system does); each move repaints the two tiles and the status line. Drawn in DejaVu Sans
// Mono 16 px, light grey on black, as the kiosk's PixelRenderer draws it. Runs until killed.
#include <QApplication>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <QWidget>
#include <cstdlib>
#include <limits>
#include <vector>

static const QColor foreground(229, 229, 229);
static const QColor background(0, 0, 0);
static const QColor faint(115, 115, 115);

class Home;

// A tile: a box with a title and a subtitle, inverse when focused (as the kiosk draws it).
class Tile : public QWidget {
public:
    Tile(Home *home, QString identifier, QString title, QString subtitle, QWidget *parent)
        : QWidget(parent), identifier(std::move(identifier)), home(home), title(std::move(title)),
          subtitle(std::move(subtitle)) {
        setFocusPolicy(Qt::StrongFocus);
        setMinimumSize(150, 95);
    }
    const QString identifier;

protected:
    void paintEvent(QPaintEvent *) override;
    void focusInEvent(QFocusEvent *) override;
    void focusOutEvent(QFocusEvent *) override { update(); }
    void keyPressEvent(QKeyEvent *event) override;

private:
    Home *home;
    QString title, subtitle;
};

class Home : public QWidget {
public:
    explicit Home(int count) {
        setWindowTitle("Riverside Clinic");
        QPalette colors = palette();
        colors.setColor(QPalette::Window, background);
        colors.setColor(QPalette::WindowText, foreground);
        setPalette(colors);
        setAutoFillBackground(true);

        auto *column = new QVBoxLayout(this);
        column->setContentsMargins(0, 0, 0, 0);
        column->setSpacing(0);
        auto *header = label(" Riverside Clinic · self-service kiosk");
        header->setAutoFillBackground(true);
        QPalette inverse = header->palette();
        inverse.setColor(QPalette::Window, foreground);
        inverse.setColor(QPalette::WindowText, background);
        header->setPalette(inverse);
        column->addWidget(header);

        auto *body = new QHBoxLayout;
        body->setSpacing(10);
        auto *menu = frame();
        auto *menuColumn = new QVBoxLayout(menu);
        menuColumn->addWidget(label("Menu"));
        for (const char *item : {"▸ Home", "  Directory", "  Check in"}) menuColumn->addWidget(label(item));
        menuColumn->addStretch();
        menu->setFixedWidth(200);
        body->addWidget(menu);

        auto *content = frame();
        auto *contentColumn = new QVBoxLayout(content);
        contentColumn->addWidget(label("Home"));
        auto *grid = new QGridLayout;
        grid->setSpacing(20);
        static const char *specs[][3] = {
            {"checkin", "Check in", "appointments"}, {"find", "Directory", "people, rooms"},
            {"hours", "Opening hours", "this week"}, {"pharmacy", "Pharmacy", "prescriptions"},
            {"parking", "Parking", "tickets"},       {"help", "Help", "the keys, F1"},
        };
        for (int index = 0; index < count; ++index) {
            const auto &spec = specs[index % 6];
            QString identifier = QString("tile-") + spec[0];
            if (index >= 6) identifier += QString::number(index / 6 + 1);
            auto *tile = new Tile(this, identifier, spec[1], spec[2], content);
            grid->addWidget(tile, index / 3, index % 3);
            tiles.push_back(tile);
        }
        contentColumn->addLayout(grid);
        contentColumn->addWidget(label("Arrows move between tiles; Return opens one.", faint));
        contentColumn->addStretch();
        body->addWidget(content, 1);
        column->addLayout(body, 1);

        status = label("");
        column->addWidget(status);
        column->addWidget(label("Welcome. Choose a tile with the arrows and Return; F1 shows the keys."));
        column->addWidget(
            label("wayland · Tab menu/content · Return choose · Ctrl-F search · Alt-Home home", faint));
    }

    // Shows the focused tile in the status line.
    void focusMoved(Tile *tile) {
        status->setText("focus " + tile->identifier + " │ first responder " + tile->identifier +
                        " │ group content │ held -");
    }

    // Moves focus from `from` to the nearest tile whose centre lies in the direction (dx, dy): the
    // distance along the direction plus twice the distance across it, the smallest wins.
    bool move(Tile *from, int dx, int dy) {
        const QPointF origin = from->geometry().center();
        Tile *best = nullptr;
        double bestScore = std::numeric_limits<double>::infinity();
        for (Tile *tile : tiles) {
            if (tile == from) continue;
            const QPointF delta = tile->geometry().center() - origin;
            const double along = delta.x() * dx + delta.y() * dy;
            if (along <= 0) continue;
            const double across = std::abs(delta.x() * dy) + std::abs(delta.y() * dx);
            const double score = along + 2 * across;
            if (score < bestScore) {
                bestScore = score;
                best = tile;
            }
        }
        if (best == nullptr) return false;
        best->setFocus(Qt::OtherFocusReason);
        return true;
    }

    std::vector<Tile *> tiles;

private:
    QLabel *status = nullptr;

    QLabel *label(const QString &text, const QColor &color = foreground) {
        auto *result = new QLabel(text);
        QPalette colors = result->palette();
        colors.setColor(QPalette::WindowText, color);
        result->setPalette(colors);
        return result;
    }

    QFrame *frame() {
        auto *result = new QFrame;
        result->setFrameStyle(QFrame::Box | QFrame::Plain);
        QPalette colors = result->palette();
        colors.setColor(QPalette::WindowText, faint);
        result->setPalette(colors);
        return result;
    }
};

void Tile::paintEvent(QPaintEvent *) {
    QPainter painter(this);
    const bool focused = hasFocus();
    const QColor text = focused ? background : foreground;
    painter.fillRect(rect(), focused ? foreground : background);
    painter.setPen(QPen(text, focused ? 3 : 1));
    painter.drawRect(rect().adjusted(1, 1, -2, -2));
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    const int line = fontMetrics().height();
    painter.drawText(QRect(20, line, width() - 40, line), Qt::AlignLeft | Qt::AlignVCenter, title);
    painter.setFont(font());
    painter.setPen(focused ? background : faint);
    painter.drawText(QRect(20, 3 * line, width() - 40, line), Qt::AlignLeft | Qt::AlignVCenter, subtitle);
}

void Tile::focusInEvent(QFocusEvent *) {
    update();
    home->focusMoved(this);
}

void Tile::keyPressEvent(QKeyEvent *event) {
    int dx = 0, dy = 0;
    switch (event->key()) {
    case Qt::Key_Left: dx = -1; break;
    case Qt::Key_Right: dx = 1; break;
    case Qt::Key_Up: dy = -1; break;
    case Qt::Key_Down: dy = 1; break;
    default: QWidget::keyPressEvent(event); return;
    }
    home->move(this, dx, dy);
    event->accept();
}

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    QFont font("DejaVu Sans Mono");
    font.setPixelSize(16);
    QApplication::setFont(font);
    const int count = argc > 1 ? std::max(1, std::atoi(argv[1])) : 6;
    Home home(count);
    home.tiles.front()->setFocus();
    home.showFullScreen();
    return app.exec();
}
