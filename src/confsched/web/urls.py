from django.urls import path

from confsched.web import views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("<slug:event>/", views.schedule, name="schedule"),
    path("<slug:event>/grid/", views.grid, name="grid"),
    path("<slug:event>/sessions/<str:key>/", views.session_detail, name="session"),
    path("<slug:event>/speakers/", views.speakers, name="speakers"),
    path("<slug:event>/speakers/<str:key>/", views.speaker_detail, name="speaker"),
]
