#include "designer/fieldmessages.h"

#include <QLabel>
#include <QVariant>
#include <QWidget>

#include "convert.h"
#include "theme.h"

namespace spindle::gui {

FieldMessages::FieldMessages(QObject* parent) : QObject(parent) {}

bool FieldMessages::isUnder(const QString& field, const QString& path) {
  if (path.isEmpty()) return true;
  if (!field.startsWith(path)) return false;
  if (field.size() == path.size()) return true;
  const QChar next = field.at(path.size());
  return next == QLatin1Char('.') || next == QLatin1Char('[');
}

QLabel* FieldMessages::add(const QString& path, QWidget* field, QWidget* labelParent) {
  auto* label = new QLabel(labelParent ? labelParent : (field ? field->parentWidget() : nullptr));
  label->setObjectName(QStringLiteral("fieldMessage"));
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setVisible(false);
  label->setProperty("spindleDynamicText", true);  // core's sentences
  entries_.insert(path, Entry{field, label, {}});
  return label;
}

void FieldMessages::removeUnder(const QString& path) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = isUnder(it.key(), path) ? entries_.erase(it) : std::next(it);
  }
}

QString FieldMessages::placeOf(const QString& diagnosticField) const {
  QString best;
  bool found = false;
  for (auto it = entries_.constBegin(); it != entries_.constEnd(); ++it) {
    if (isUnder(diagnosticField, it.key()) && (!found || it.key().size() > best.size())) {
      best = it.key();
      found = true;
    }
  }
  return found ? best : QString();
}

void FieldMessages::show(const Diagnostics& diagnostics) {
  for (auto& entry : entries_) entry.messages.clear();
  unplaced_.clear();
  problemFields_.clear();
  for (const auto& diagnostic : diagnostics) {
    const QString field = qs(diagnostic.field);
    problemFields_ << field;
    const QString place = field.isEmpty() ? QString() : placeOf(field);
    const QString message = qs(diagnostic.message);
    if (place.isEmpty()) {
      unplaced_ << (field.isEmpty() ? message : field + QStringLiteral(": ") + message);
      continue;
    }
    auto& entry = entries_[place];
    // A message about part of the field (one file of several) names the part.
    const QString shown = field == place ? message : field.mid(place.size() + 1) + QStringLiteral(": ") + message;
    if (!entry.messages.contains(shown)) entry.messages << shown;
  }
  const QColor color = problemColor();
  for (auto& entry : entries_) {
    if (!entry.label) continue;
    const bool problem = !entry.messages.isEmpty();
    entry.label->setText(entry.messages.join(QLatin1Char('\n')));
    QPalette palette = entry.label->palette();
    palette.setColor(QPalette::WindowText, color);
    entry.label->setPalette(palette);
    entry.label->setVisible(problem);
    if (entry.field) {
      entry.field->setProperty("hasProblem", problem);
      entry.field->setAccessibleDescription(problem ? entry.label->text() : QString());
    }
  }
}

QString FieldMessages::messageFor(const QString& path) const {
  const auto found = entries_.constFind(path);
  return found == entries_.constEnd() ? QString() : found->messages.join(QLatin1Char('\n'));
}

QWidget* FieldMessages::field(const QString& path) const {
  const auto found = entries_.constFind(path);
  return found == entries_.constEnd() ? nullptr : found->field.data();
}

int FieldMessages::countUnder(const QString& path) const {
  int count = 0;
  for (const QString& field : problemFields_) {
    if (isUnder(field, path)) ++count;
  }
  return count;
}

}  // namespace spindle::gui
